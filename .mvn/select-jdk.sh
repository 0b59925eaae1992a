# Sourced by ./mvnw and bin/ scripts: Layerfold needs JDK 21+. Where JAVA_HOME is unset or older
# (a fresh Debian machine defaults to 17), export the newest JDK 21+ found under /usr/lib/jvm.
layerfold_java_major() { "$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p'; }
if [ -z "${JAVA_HOME-}" ] || [ "$(layerfold_java_major "$JAVA_HOME" 2>/dev/null || echo 0)" -lt 21 ] 2>/dev/null; then
  for layerfold_candidate in $(find /usr/lib/jvm -mindepth 1 -maxdepth 1 -type d 2>/dev/null | sort -rV); do
    if [ -x "$layerfold_candidate/bin/javac" ] && [ "$(layerfold_java_major "$layerfold_candidate" || echo 0)" -ge 21 ] 2>/dev/null; then
      export JAVA_HOME="$layerfold_candidate"
      break
    fi
  done
fi
