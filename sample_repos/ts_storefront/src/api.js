/**
 * Thin HTTP layer between the storefront and the catalogue/checkout APIs.
 *
 * This file is still plain JavaScript (it predates the TypeScript
 * migration); the types live in cart.ts and are documented with JSDoc here.
 */

const DEFAULT_BASE_URL = "/api/v2";
const DEFAULT_TIMEOUT_MS = 8000;

/**
 * Serialise a flat params object into a query string. Arrays become repeated
 * keys (`tag=a&tag=b`); null/undefined values are skipped.
 * @param {Record<string, unknown>} params
 * @returns {string} including the leading "?" or an empty string
 */
export function buildQueryString(params) {
  const parts = [];
  for (const [key, value] of Object.entries(params || {})) {
    if (value === undefined || value === null || value === "") continue;
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) {
      parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(v))}`);
    }
  }
  return parts.length ? `?${parts.join("&")}` : "";
}

/**
 * Race a promise against a timer. The timer is cleared either way so it
 * does not keep a test runner alive.
 */
export function withTimeout(promise, ms, label = "request") {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${label} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Memoise async lookups for `ttlMs`. Returns a function with the same
 * signature as `loader` plus an `invalidate(key)` helper. Concurrent calls
 * for the same key share one in-flight promise.
 */
export function createTtlCache(loader, ttlMs = 60_000) {
  const entries = new Map();

  function cached(key) {
    const hit = entries.get(key);
    if (hit && Date.now() - hit.storedAt < ttlMs) {
      return hit.promise;
    }
    const promise = loader(key).catch((err) => {
      // Do not cache failures; the next caller should retry.
      entries.delete(key);
      throw err;
    });
    entries.set(key, { promise, storedAt: Date.now() });
    return promise;
  }

  cached.invalidate = (key) => (key === undefined ? entries.clear() : entries.delete(key));
  return cached;
}

/**
 * Delay calls to `fn` until `waitMs` passed without another call. Used by
 * the search box so we do not fire a request per keystroke.
 */
export function debounce(fn, waitMs = 250) {
  let handle = null;
  return function debounced(...args) {
    if (handle !== null) clearTimeout(handle);
    handle = setTimeout(() => {
      handle = null;
      fn.apply(this, args);
    }, waitMs);
  };
}

export class ApiError extends Error {
  constructor(status, body, url) {
    super(`HTTP ${status} for ${url}`);
    this.name = "ApiError";
    this.status = status;
    this.body = body;
  }

  get retryable() {
    return this.status === 429 || this.status >= 500;
  }
}

export class StorefrontApi {
  /**
   * @param {{ baseUrl?: string, fetchImpl?: typeof fetch, getToken?: () => string | null }} options
   */
  constructor({ baseUrl = DEFAULT_BASE_URL, fetchImpl = globalThis.fetch, getToken = () => null } = {}) {
    this.baseUrl = baseUrl.replace(/\/$/, "");
    this.fetchImpl = fetchImpl;
    this.getToken = getToken;
    this.productById = createTtlCache((id) => this.request(`/products/${encodeURIComponent(id)}`));
  }

  /** Perform a JSON request, attaching the session token when we have one. */
  async request(path, { method = "GET", body, query, timeoutMs = DEFAULT_TIMEOUT_MS } = {}) {
    const url = `${this.baseUrl}${path}${buildQueryString(query)}`;
    const headers = { Accept: "application/json" };
    const token = this.getToken();
    if (token) headers.Authorization = `Bearer ${token}`;
    if (body !== undefined) headers["Content-Type"] = "application/json";

    const response = await withTimeout(
      this.fetchImpl(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }),
      timeoutMs,
      `${method} ${path}`,
    );
    const text = await response.text();
    const data = text ? JSON.parse(text) : null;
    if (!response.ok) throw new ApiError(response.status, data, url);
    return data;
  }

  searchProducts(term, { page = 1, tags = [] } = {}) {
    return this.request("/products", { query: { q: term, page, tag: tags } });
  }

  /**
   * Validate stock and prices on the server right before checkout. Calls
   * `onAdjusted(line)` for every line whose quantity the server reduced.
   */
  async verifyCart(cartSnapshot, onAdjusted = () => {}) {
    const result = await this.request("/cart/verify", { method: "POST", body: cartSnapshot });
    for (const line of result.lines) {
      if (line.quantity < line.requestedQuantity) onAdjusted(line);
    }
    return result;
  }

  /**
   * Place an order with up to `attempts` tries on retryable errors. The
   * idempotency key makes a retried POST safe on the server side.
   */
  async placeOrder(cartSnapshot, paymentToken, attempts = 3) {
    const idempotencyKey = `ord_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    let lastError;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        return await this.request("/orders", {
          method: "POST",
          body: { cart: cartSnapshot, paymentToken, idempotencyKey },
          timeoutMs: 15_000,
        });
      } catch (err) {
        lastError = err;
        if (!(err instanceof ApiError) || !err.retryable) throw err;
        await new Promise((resolve) => setTimeout(resolve, 400 * 2 ** (attempt - 1)));
      }
    }
    throw lastError;
  }
}

/**
 * Callback-style wrapper for the legacy checkout widget that cannot use
 * promises: `loadRecommendations(api, id, (err, items) => ...)`.
 */
export function loadRecommendations(api, productId, callback) {
  api
    .request(`/products/${encodeURIComponent(productId)}/recommendations`)
    .then((items) => callback(null, items.filter((item) => item.stock > 0).slice(0, 8)))
    .catch((err) => callback(err, []));
}
