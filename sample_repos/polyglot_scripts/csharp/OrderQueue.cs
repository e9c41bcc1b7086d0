using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Text.Json.Serialization;
using System.Threading;

namespace Shop.Orders
{
    /// <summary>Fulfilment priority; express orders jump the queue.</summary>
    public enum Priority
    {
        Standard = 0,
        Express = 1,
        Replacement = 2,
    }

    /// <summary>
    /// In-process queue of orders waiting for a picking slot in the
    /// warehouse. Higher priority first, then oldest first. Orders that fail
    /// picking are retried a few times and then parked for a human.
    /// </summary>
    [DebuggerDisplay("Pending = {Count}, Parked = {ParkedCount}")]
    public sealed class OrderQueue
    {
        /// <summary>A queued order plus its bookkeeping.</summary>
        public sealed class Entry
        {
            [JsonPropertyName("order_id")]
            public string OrderId { get; init; } = "";

            [JsonPropertyName("priority")]
            public Priority Priority { get; init; }

            public DateTimeOffset EnqueuedAt { get; init; }

            public int Attempts { get; internal set; }

            public string? LastError { get; internal set; }

            /// <summary>Minutes the order has been waiting, for the SLA dashboard.</summary>
            public double WaitingMinutes(DateTimeOffset now) => (now - EnqueuedAt).TotalMinutes;
        }

        private readonly object _gate = new();
        private readonly SortedSet<(int Rank, long Seq)> _order = new();
        private readonly Dictionary<long, Entry> _bySeq = new();
        private readonly Dictionary<string, long> _seqByOrderId = new();
        private readonly List<Entry> _parked = new();
        private long _nextSeq;

        public OrderQueue(int maxAttempts = 3)
        {
            if (maxAttempts < 1) throw new ArgumentOutOfRangeException(nameof(maxAttempts));
            MaxAttempts = maxAttempts;
        }

        public int MaxAttempts { get; }

        public int Count
        {
            get { lock (_gate) return _bySeq.Count; }
        }

        public int ParkedCount
        {
            get { lock (_gate) return _parked.Count; }
        }

        public IReadOnlyList<Entry> Parked
        {
            get { lock (_gate) return _parked.ToList(); }
        }

        /// <summary>
        /// Add an order. Enqueueing an order that is already waiting only
        /// raises its priority if the new one is higher; it never loses its
        /// place in line.
        /// </summary>
        public bool Enqueue(string orderId, Priority priority, DateTimeOffset? now = null)
        {
            lock (_gate)
            {
                if (_seqByOrderId.TryGetValue(orderId, out var existingSeq))
                {
                    var existing = _bySeq[existingSeq];
                    if (priority <= existing.Priority) return false;
                    _order.Remove((-(int)existing.Priority, existingSeq));
                    _order.Add((-(int)priority, existingSeq));
                    _bySeq[existingSeq] = new Entry
                    {
                        OrderId = orderId,
                        Priority = priority,
                        EnqueuedAt = existing.EnqueuedAt,
                        Attempts = existing.Attempts,
                    };
                    return true;
                }

                var seq = _nextSeq++;
                _bySeq[seq] = new Entry { OrderId = orderId, Priority = priority, EnqueuedAt = now ?? DateTimeOffset.UtcNow };
                _seqByOrderId[orderId] = seq;
                _order.Add((-(int)priority, seq));
                Monitor.Pulse(_gate);
                return true;
            }
        }

        /// <summary>Take the next order, waiting up to <paramref name="timeout"/>.</summary>
        public Entry? TryDequeue(TimeSpan timeout)
        {
            var deadline = DateTime.UtcNow + timeout;
            lock (_gate)
            {
                while (_order.Count == 0)
                {
                    var left = deadline - DateTime.UtcNow;
                    if (left <= TimeSpan.Zero || !Monitor.Wait(_gate, left)) return null;
                }
                var head = _order.Min;
                _order.Remove(head);
                var entry = _bySeq[head.Seq];
                _bySeq.Remove(head.Seq);
                _seqByOrderId.Remove(entry.OrderId);
                return entry;
            }
        }

        /// <summary>
        /// Report a failed picking attempt. The order goes back to the end of
        /// its priority class (its original enqueue time is kept, so SLA
        /// reporting stays honest) until it has failed
        /// <see cref="MaxAttempts"/> times; then it is parked.
        /// </summary>
        public void Fail(Entry entry, string error)
        {
            lock (_gate)
            {
                entry.Attempts++;
                entry.LastError = error;
                if (entry.Attempts >= MaxAttempts)
                {
                    _parked.Add(entry);
                    return;
                }
                var seq = _nextSeq++;
                _bySeq[seq] = entry;
                _seqByOrderId[entry.OrderId] = seq;
                _order.Add((-(int)entry.Priority, seq));
                Monitor.Pulse(_gate);
            }
        }

        /// <summary>Orders waiting longer than the SLA for their priority.</summary>
        public IEnumerable<Entry> BreachingSla(DateTimeOffset now)
        {
            Entry[] snapshot;
            lock (_gate) snapshot = _bySeq.Values.ToArray();
            return snapshot
                .Where(e => e.WaitingMinutes(now) > SlaMinutes(e.Priority))
                .OrderByDescending(e => e.WaitingMinutes(now));
        }

        [Obsolete("Use BreachingSla; kept for the old dashboard until it is retired.")]
        public int LateCount(DateTimeOffset now) => BreachingSla(now).Count();

        private static double SlaMinutes(Priority priority) => priority switch
        {
            Priority.Express => 30,
            Priority.Replacement => 60,
            _ => 240,
        };
    }
}
