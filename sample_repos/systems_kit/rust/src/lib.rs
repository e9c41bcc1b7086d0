//! Small building blocks shared by our Rust services: human-readable byte
//! sizes for config files, retry backoff policies, and a size-bounded LRU
//! cache for decoded blobs.

use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::hash::Hash;
use std::str::FromStr;
use std::time::Duration;

/// A number of bytes that parses from and prints as "64MiB", "1.5 GB", ...
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct ByteSize(pub u64);

/// Why a size string could not be parsed.
#[derive(Debug, Clone, PartialEq)]
pub enum ParseSizeError {
    Empty,
    InvalidNumber(String),
    UnknownUnit(String),
    Overflow,
}

impl fmt::Display for ParseSizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseSizeError::Empty => write!(f, "empty size"),
            ParseSizeError::InvalidNumber(n) => write!(f, "invalid number {n:?}"),
            ParseSizeError::UnknownUnit(u) => write!(f, "unknown unit {u:?} (try KiB, MB, GiB)"),
            ParseSizeError::Overflow => write!(f, "size does not fit in 64 bits"),
        }
    }
}

impl std::error::Error for ParseSizeError {}

const UNITS: &[(&str, u64)] = &[
    ("b", 1),
    ("kb", 1_000),
    ("mb", 1_000_000),
    ("gb", 1_000_000_000),
    ("tb", 1_000_000_000_000),
    ("kib", 1 << 10),
    ("mib", 1 << 20),
    ("gib", 1 << 30),
    ("tib", 1 << 40),
];

impl ByteSize {
    pub const fn kib(n: u64) -> Self {
        ByteSize(n << 10)
    }

    pub const fn mib(n: u64) -> Self {
        ByteSize(n << 20)
    }

    /// Parse "512", "4k", "1.5 GiB". A bare number is bytes; single-letter
    /// suffixes (k, m, g, t) are treated as binary units, because that is
    /// what people mean in memory limits.
    pub fn parse(input: &str) -> Result<Self, ParseSizeError> {
        let s = input.trim();
        if s.is_empty() {
            return Err(ParseSizeError::Empty);
        }
        let split = s
            .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '_'))
            .unwrap_or(s.len());
        let (number, unit) = s.split_at(split);
        let number: f64 = number
            .replace('_', "")
            .parse()
            .map_err(|_| ParseSizeError::InvalidNumber(number.to_string()))?;
        let unit = unit.trim().to_ascii_lowercase();
        let multiplier = match unit.as_str() {
            "" => 1,
            "k" => 1 << 10,
            "m" => 1 << 20,
            "g" => 1 << 30,
            "t" => 1 << 40,
            other => UNITS
                .iter()
                .find(|(name, _)| *name == other)
                .map(|(_, m)| *m)
                .ok_or_else(|| ParseSizeError::UnknownUnit(other.to_string()))?,
        };
        let bytes = number * multiplier as f64;
        if !bytes.is_finite() || bytes > u64::MAX as f64 {
            return Err(ParseSizeError::Overflow);
        }
        Ok(ByteSize(bytes.round() as u64))
    }

    /// Largest binary unit that keeps the value >= 1, one decimal place.
    pub fn human(&self) -> String {
        const NAMES: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
        let mut value = self.0 as f64;
        let mut idx = 0;
        while value >= 1024.0 && idx < NAMES.len() - 1 {
            value /= 1024.0;
            idx += 1;
        }
        if idx == 0 {
            format!("{} B", self.0)
        } else {
            format!("{:.1} {}", value, NAMES[idx])
        }
    }
}

impl fmt::Display for ByteSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.human())
    }
}

impl FromStr for ByteSize {
    type Err = ParseSizeError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ByteSize::parse(s)
    }
}

/// How long to wait before retry number `attempt` (1-based).
#[derive(Debug, Clone, PartialEq)]
pub enum Backoff {
    Fixed(Duration),
    Linear { step: Duration, max: Duration },
    Exponential { base: Duration, factor: u32, max: Duration },
}

impl Backoff {
    pub fn delay(&self, attempt: u32) -> Duration {
        let attempt = attempt.max(1);
        match self {
            Backoff::Fixed(d) => *d,
            Backoff::Linear { step, max } => (*step * attempt).min(*max),
            Backoff::Exponential { base, factor, max } => {
                // factor^(attempt-1) overflows quickly; saturate instead.
                let mult = factor.checked_pow(attempt - 1).unwrap_or(u32::MAX);
                base.checked_mul(mult).unwrap_or(*max).min(*max)
            }
        }
    }

    /// Total time spent sleeping if every one of `attempts` retries fails.
    pub fn total_delay(&self, attempts: u32) -> Duration {
        (1..=attempts).map(|a| self.delay(a)).sum()
    }
}

/// Things that know how much memory they occupy, for size-bounded caches.
pub trait Weigh {
    fn weight(&self) -> usize;

    fn weight_label(&self) -> String {
        ByteSize(self.weight() as u64).human()
    }
}

impl Weigh for Vec<u8> {
    fn weight(&self) -> usize {
        self.capacity()
    }
}

impl Weigh for String {
    fn weight(&self) -> usize {
        self.capacity()
    }
}

/// Least-recently-used cache bounded by the total weight of its values.
///
/// Recency is tracked in a queue of keys; a `get` moves the key to the back.
/// That makes `get` O(n) in the worst case, which is fine for the few
/// hundred entries we keep.
#[derive(Debug)]
pub struct WeightedLru<K, V> {
    budget: usize,
    used: usize,
    map: HashMap<K, V>,
    order: VecDeque<K>,
}

impl<K: Hash + Eq + Clone, V: Weigh> WeightedLru<K, V> {
    pub fn with_budget(budget: ByteSize) -> Self {
        WeightedLru { budget: budget.0 as usize, used: 0, map: HashMap::new(), order: VecDeque::new() }
    }

    pub fn get(&mut self, key: &K) -> Option<&V> {
        if self.map.contains_key(key) {
            self.touch(key);
        }
        self.map.get(key)
    }

    /// Insert a value, evicting the least recently used entries until the
    /// cache fits its budget. Values larger than the whole budget are
    /// rejected and handed back.
    pub fn insert(&mut self, key: K, value: V) -> Result<(), V> {
        let w = value.weight();
        if w > self.budget {
            return Err(value);
        }
        if let Some(old) = self.map.remove(&key) {
            self.used -= old.weight();
            self.order.retain(|k| k != &key);
        }
        while self.used + w > self.budget {
            let Some(oldest) = self.order.pop_front() else { break };
            if let Some(evicted) = self.map.remove(&oldest) {
                self.used -= evicted.weight();
            }
        }
        self.used += w;
        self.order.push_back(key.clone());
        self.map.insert(key, value);
        Ok(())
    }

    fn touch(&mut self, key: &K) {
        if let Some(pos) = self.order.iter().position(|k| k == key) {
            let k = self.order.remove(pos).expect("position is in range");
            self.order.push_back(k);
        }
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    pub fn used(&self) -> ByteSize {
        ByteSize(self.used as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_plain_and_suffixed_sizes() {
        assert_eq!(ByteSize::parse("512").unwrap(), ByteSize(512));
        assert_eq!(ByteSize::parse("4k").unwrap(), ByteSize::kib(4));
        assert_eq!("1.5 GiB".parse::<ByteSize>().unwrap(), ByteSize(1_610_612_736));
        assert_eq!(ByteSize::parse("2MB").unwrap(), ByteSize(2_000_000));
    }

    #[test]
    fn rejects_garbage_units() {
        assert_eq!(ByteSize::parse(""), Err(ParseSizeError::Empty));
        assert!(matches!(ByteSize::parse("10 parsecs"), Err(ParseSizeError::UnknownUnit(_))));
    }

    #[test]
    fn exponential_backoff_saturates_at_max() {
        let b = Backoff::Exponential {
            base: Duration::from_millis(100),
            factor: 2,
            max: Duration::from_secs(2),
        };
        assert_eq!(b.delay(1), Duration::from_millis(100));
        assert_eq!(b.delay(4), Duration::from_millis(800));
        assert_eq!(b.delay(40), Duration::from_secs(2));
    }

    #[test]
    fn lru_evicts_oldest_first() {
        let mut cache: WeightedLru<&str, Vec<u8>> = WeightedLru::with_budget(ByteSize(100));
        cache.insert("a", vec![0; 40]).unwrap();
        cache.insert("b", vec![0; 40]).unwrap();
        cache.get(&"a");
        cache.insert("c", vec![0; 40]).unwrap();
        assert!(cache.get(&"b").is_none());
        assert!(cache.get(&"a").is_some());
        assert_eq!(cache.len(), 2);
    }
}
