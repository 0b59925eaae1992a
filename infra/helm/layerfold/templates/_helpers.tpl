{{- define "layerfold.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "layerfold.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "layerfold.selectorLabels" -}}
app.kubernetes.io/name: {{ include "layerfold.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "layerfold.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{ include "layerfold.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{- define "layerfold.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "layerfold.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "layerfold.embedded" -}}
{{- eq .Values.storage.backend "embedded" -}}
{{- end -}}

{{/* Checks that fail the render with a message a person can act on. */}}
{{- define "layerfold.validate" -}}
{{- if not (has .Values.storage.backend (list "embedded" "s3-redis")) -}}
{{- fail "storage.backend must be embedded or s3-redis" -}}
{{- end -}}
{{- if not (has .Values.auth.mode (list "token" "basic" "none")) -}}
{{- fail "auth.mode must be token, basic or none" -}}
{{- end -}}
{{- if and (ne .Values.auth.mode "none") (not .Values.auth.existingSecret) -}}
{{- fail "auth.mode token or basic needs auth.existingSecret (a Secret with the htpasswd file and the signing key)" -}}
{{- end -}}
{{- if eq .Values.storage.backend "s3-redis" -}}
{{- if not .Values.storage.s3.bucket -}}
{{- fail "storage.backend s3-redis needs storage.s3.bucket" -}}
{{- end -}}
{{- if not .Values.storage.redis.existingSecret -}}
{{- fail "storage.backend s3-redis needs storage.redis.existingSecret (a Secret with the Redis URL)" -}}
{{- end -}}
{{- end -}}
{{- if eq (int .Values.ports.registry) (int .Values.ports.management) -}}
{{- fail "ports.management must differ from ports.registry: the management plane stays off the Service and Ingress" -}}
{{- end -}}
{{- end -}}

{{/* The pod template of both the StatefulSet (embedded) and the Deployment (s3-redis). */}}
{{- define "layerfold.podTemplate" -}}
metadata:
  labels:
    {{- include "layerfold.selectorLabels" . | nindent 4 }}
    {{- with .Values.podLabels }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  {{- with .Values.podAnnotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
spec:
  serviceAccountName: {{ include "layerfold.serviceAccountName" . }}
  # The registry calls no Kubernetes API.
  automountServiceAccountToken: false
  {{- with .Values.imagePullSecrets }}
  imagePullSecrets:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  terminationGracePeriodSeconds: {{ .Values.terminationGracePeriodSeconds }}
  securityContext:
    runAsNonRoot: true
    runAsUser: 10001
    runAsGroup: 10001
    fsGroup: 10001
    seccompProfile:
      type: RuntimeDefault
  containers:
    - name: registry
      {{- if .Values.image.digest }}
      image: "{{ .Values.image.repository }}@{{ .Values.image.digest }}"
      {{- else }}
      image: "{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}"
      {{- end }}
      imagePullPolicy: {{ .Values.image.pullPolicy }}
      securityContext:
        allowPrivilegeEscalation: false
        readOnlyRootFilesystem: true
        capabilities:
          drop: [ALL]
      ports:
        - name: registry
          containerPort: {{ .Values.ports.registry }}
          protocol: TCP
        - name: management
          containerPort: {{ .Values.ports.management }}
          protocol: TCP
      env:
        - name: LAYERFOLD_PORT
          value: {{ .Values.ports.registry | quote }}
        # Spring Boot: the actuator on its own port, on every address so the kubelet's probes reach it.
        - name: MANAGEMENT_SERVER_PORT
          value: {{ .Values.ports.management | quote }}
        - name: MANAGEMENT_SERVER_ADDRESS
          value: "0.0.0.0"
        - name: LAYERFOLD_STORAGE_PATH
          value: /var/lib/layerfold/data
        {{- if eq .Values.storage.backend "s3-redis" }}
        - name: LAYERFOLD_STORAGE_BLOB
          value: s3
        - name: LAYERFOLD_STORAGE_METADATA
          value: redis
        - name: LAYERFOLD_STORAGE_S3_BUCKET
          value: {{ .Values.storage.s3.bucket | quote }}
        - name: LAYERFOLD_STORAGE_S3_REGION
          value: {{ .Values.storage.s3.region | quote }}
        {{- with .Values.storage.s3.endpoint }}
        - name: LAYERFOLD_STORAGE_S3_ENDPOINT
          value: {{ . | quote }}
        {{- end }}
        - name: LAYERFOLD_STORAGE_S3_PATH_STYLE
          value: {{ .Values.storage.s3.pathStyle | quote }}
        {{- with .Values.storage.s3.existingSecret }}
        - name: LAYERFOLD_STORAGE_S3_ACCESS_KEY
          valueFrom:
            secretKeyRef:
              name: {{ . }}
              key: {{ $.Values.storage.s3.accessKeyKey }}
        - name: LAYERFOLD_STORAGE_S3_SECRET_KEY
          valueFrom:
            secretKeyRef:
              name: {{ . }}
              key: {{ $.Values.storage.s3.secretKeyKey }}
        {{- end }}
        - name: LAYERFOLD_STORAGE_REDIS_URL
          valueFrom:
            secretKeyRef:
              name: {{ .Values.storage.redis.existingSecret }}
              key: {{ .Values.storage.redis.urlKey }}
        - name: LAYERFOLD_STORAGE_REDIS_CLUSTER
          value: {{ .Values.storage.redis.cluster | quote }}
        - name: LAYERFOLD_STORAGE_REDIS_NAMESPACE
          value: {{ .Values.storage.redis.namespace | quote }}
        {{- else }}
        - name: LAYERFOLD_STORAGE_BLOB
          value: filesystem
        - name: LAYERFOLD_STORAGE_METADATA
          value: embedded
        {{- end }}
        - name: LAYERFOLD_AUTH_MODE
          value: {{ .Values.auth.mode | quote }}
        {{- if ne .Values.auth.mode "none" }}
        - name: LAYERFOLD_AUTH_HTPASSWD
          value: /etc/layerfold/auth/htpasswd
        {{- end }}
        {{- if eq .Values.auth.mode "token" }}
        - name: LAYERFOLD_AUTH_SIGNING_KEY
          value: /etc/layerfold/auth/signing-key.pem
        {{- if and .Values.ingress.enabled .Values.ingress.tlsSecretName }}
        - name: LAYERFOLD_AUTH_REALM
          value: "https://{{ .Values.ingress.host }}/token"
        {{- end }}
        {{- end }}
        - name: LAYERFOLD_DEDUP_WORKERS
          value: {{ .Values.dedup.workers | quote }}
        {{- if .Values.ingress.enabled }}
        # Behind the ingress controller: Location headers and the token realm take its X-Forwarded-* headers.
        - name: SERVER_FORWARD_HEADERS_STRATEGY
          value: native
        {{- end }}
        {{- with .Values.extraEnv }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      startupProbe:
        httpGet:
          path: /actuator/health/liveness
          port: management
        periodSeconds: 5
        failureThreshold: 60
      livenessProbe:
        httpGet:
          path: /actuator/health/liveness
          port: management
        periodSeconds: 10
        timeoutSeconds: 5
        failureThreshold: 3
      readinessProbe:
        httpGet:
          path: /actuator/health/readiness
          port: management
        periodSeconds: 10
        timeoutSeconds: 5
        failureThreshold: 3
      resources:
        {{- toYaml .Values.resources | nindent 8 }}
      volumeMounts:
        - name: data
          mountPath: /var/lib/layerfold/data
        - name: tmp
          mountPath: /tmp
        {{- if ne .Values.auth.mode "none" }}
        - name: auth
          mountPath: /etc/layerfold/auth
          readOnly: true
        {{- end }}
  volumes:
    - name: tmp
      emptyDir:
        sizeLimit: 1Gi
    {{- if eq .Values.storage.backend "s3-redis" }}
    - name: data
      emptyDir:
        sizeLimit: {{ .Values.storage.scratchSizeLimit }}
    {{- end }}
    {{- if ne .Values.auth.mode "none" }}
    - name: auth
      secret:
        secretName: {{ .Values.auth.existingSecret }}
        defaultMode: 0440
        items:
          - key: {{ .Values.auth.htpasswdKey }}
            path: htpasswd
          {{- if eq .Values.auth.mode "token" }}
          - key: {{ .Values.auth.signingKeyKey }}
            path: signing-key.pem
          {{- end }}
    {{- end }}
  {{- with .Values.nodeSelector }}
  nodeSelector:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with .Values.affinity }}
  affinity:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with .Values.tolerations }}
  tolerations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with .Values.topologySpreadConstraints }}
  topologySpreadConstraints:
    {{- toYaml . | nindent 4 }}
  {{- end }}
{{- end -}}
