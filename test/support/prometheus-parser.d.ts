/** Types for the untyped parse-prometheus-text-format (an independent parser of the text exposition format): what the tests read. */
declare module 'parse-prometheus-text-format' {
  export interface ParsedSample {
    labels?: Record<string, string>
    value?: string
    buckets?: Record<string, string>
    count?: string
    sum?: string
  }
  export interface ParsedFamily {
    name: string
    help: string
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED'
    metrics: ParsedSample[]
  }
  export default function parsePrometheusTextFormat(text: string): ParsedFamily[]
}
