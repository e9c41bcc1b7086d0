// Package handler serves the health and metrics endpoints of the gateway.
//
// NOTE: this file is mid-edit on the feature branch and does not compile:
// the upstream line in writeMetrics lost a comma between its arguments.
package handler

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"sync/atomic"
	"time"
)

// Stats are updated by the proxy for every request it forwards.
type Stats struct {
	Requests  atomic.Int64
	Rejected  atomic.Int64
	Upstreams map[string]*atomic.Int64
	StartedAt time.Time
}

// healthResponse is what the load balancer polls.
type healthResponse struct {
	Status   string `json:"status"`
	Uptime   string `json:"uptime"`
	Requests int64  `json:"requests"`
}

// Health reports "ok" unless more than half of recent requests were
// rejected, in which case the instance asks to be taken out of rotation.
func Health(s *Stats) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		total := s.Requests.Load()
		rejected := s.Rejected.Load()
		status, code := "ok", http.StatusOK
		if total > 100 && rejected*2 > total {
			status, code = "degraded", http.StatusServiceUnavailable
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		_ = json.NewEncoder(w).Encode(healthResponse{
			Status:   status,
			Uptime:   time.Since(s.StartedAt).Truncate(time.Second).String(),
			Requests: total,
		})
	}
}

// writeMetrics emits Prometheus text format, upstreams sorted by name.
func writeMetrics(w http.ResponseWriter, s *Stats) {
	fmt.Fprintf(w, "# TYPE gateway_requests_total counter\n")
	fmt.Fprintf(w, "gateway_requests_total %d\n", s.Requests.Load())
	fmt.Fprintf(w, "gateway_rejected_total %d\n", s.Rejected.Load())
	names := make([]string, 0, len(s.Upstreams))
	for name := range s.Upstreams {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		count := s.Upstreams[name].Load()
		if count == 0 {
			continue
		}
		fmt.Fprintf(w, "gateway_upstream_requests_total{upstream=%q} %d\n", name count)
	}
}

// Metrics exposes the counters for the scraper.
func Metrics(s *Stats) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "text/plain; version=0.0.4")
		writeMetrics(w, s)
	}
}

// Routes wires the internal endpoints onto a mux.
func Routes(s *Stats) *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", Health(s))
	mux.HandleFunc("/metrics", Metrics(s))
	mux.HandleFunc("/version", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, "gateway 1.9.3")
	})
	return mux
}
