# syntax=docker/dockerfile:1
# The Layerfold registry image: `docker build -t layerfold .` (or `docker compose build`).

# Build stage: the Maven wrapper builds the server jar. Tests are the CI's job, not the image's, and
# mdep.skip spares the download of the S3 server the storage tests start.
FROM eclipse-temurin:25-jdk AS build
WORKDIR /src
COPY . .
RUN --mount=type=cache,target=/root/.m2 \
    ./mvnw -B -q -DskipTests -Dmdep.skip=true -pl server -am package

# Runtime stage: a JRE and the one jar, run as an unprivileged user.
FROM eclipse-temurin:25-jre
RUN useradd --system --uid 10001 --home-dir /var/lib/layerfold --create-home layerfold
WORKDIR /var/lib/layerfold
COPY --from=build /src/server/target/layerfold.jar /opt/layerfold/layerfold.jar
USER layerfold
# Embedded backends keep their data here; with S3 + Redis the container is stateless.
ENV LAYERFOLD_STORAGE_PATH=/var/lib/layerfold/data
# The management plane (health, metrics, admin actions) listens on 5001 on every interface of the
# container, so that orchestrators' probes (which come from outside it) reach health. Publish it to
# nobody else: compose publishes it on the host's loopback only; in Kubernetes keep it off any Service
# clients use. With sign-in on, admin actions need the admin grant there too.
ENV LAYERFOLD_MANAGEMENT_ADDRESS=0.0.0.0
EXPOSE 5000 5001
# bash's /dev/tcp avoids needing curl in the image.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
    CMD bash -c 'exec 3<>/dev/tcp/127.0.0.1/5001 && printf "GET /actuator/health/readiness HTTP/1.0\r\n\r\n" >&3 && grep -q "\"UP\"" <&3'
# A JVM out of memory may live on with dead threads (Tomcat's poller) and answer nothing: exit instead,
# so the container's restart policy or orchestrator starts a fresh one.
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-XX:+ExitOnOutOfMemoryError", "-jar", "/opt/layerfold/layerfold.jar"]
