package promlane

import _ "embed"

// Rules is rules.yml: Prometheus alerting rules over the metrics a
// Collector exports (saturation, shed rate, breaker open, recovery lag,
// stuck work, pool exhaustion and acquire failures, leaks, pools shared
// across lanes). Write it to a file in Prometheus's rule_files, or copy and
// tune it; the metric names assume the default namespace "bulkhead".
//
//go:embed rules.yml
var Rules []byte
