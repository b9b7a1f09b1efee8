/**
 * @module clubcred/metrics: Prometheus metrics of an issuer with prom-client, in a registry of their own.
 */
export { createPrometheusMetrics, type PrometheusMetrics, type PrometheusMetricsOptions } from './prometheus.ts'
