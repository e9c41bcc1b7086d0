/**
 * Client-side shopping cart.
 *
 * All amounts are integer cents to avoid floating point drift; formatting
 * to a display string happens only at the edges (see `formatPrice`).
 * The cart is persisted to localStorage by the caller via `toJSON` /
 * `ShoppingCart.fromJSON`.
 */

export type CurrencyCode = "EUR" | "USD" | "GBP";

export interface Product {
  id: string;
  title: string;
  priceCents: number;
  currency: CurrencyCode;
  /** Units left in the warehouse at the time the page was rendered. */
  stock: number;
  weightGrams?: number;
}

export interface CartLine {
  product: Product;
  quantity: number;
  addedAt: number;
}

export interface Coupon {
  code: string;
  kind: "percent" | "fixed" | "free_shipping";
  value: number;
  /** Minimum subtotal (cents) before the coupon applies. */
  minSubtotalCents?: number;
  expiresAt?: string;
}

export interface CartSnapshot {
  currency: CurrencyCode;
  lines: Array<{ productId: string; quantity: number; product: Product; addedAt: number }>;
  coupon: Coupon | null;
}

export type CartEvent = "changed" | "coupon-rejected" | "stock-limited";
type Listener<T> = (payload: T) => void;

/** Either a value or an error message, used instead of throwing in UI code. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: string };

export const MAX_QUANTITY_PER_LINE = 20;
export const FREE_SHIPPING_THRESHOLD_CENTS = 4900;

const SHIPPING_TABLE: Array<{ upToGrams: number; cents: number }> = [
  { upToGrams: 500, cents: 395 },
  { upToGrams: 2000, cents: 595 },
  { upToGrams: 10000, cents: 895 },
  { upToGrams: Infinity, cents: 1690 },
];

export const formatPrice = (cents: number, currency: CurrencyCode, locale = "de-DE"): string =>
  new Intl.NumberFormat(locale, { style: "currency", currency }).format(cents / 100);

export const sumBy = <T>(items: readonly T[], pick: (item: T) => number): number =>
  items.reduce((acc, item) => acc + pick(item), 0);

export const clampQuantity = (requested: number, stock: number): number =>
  Math.max(0, Math.min(Math.floor(requested), stock, MAX_QUANTITY_PER_LINE));

export const isCouponExpired = (coupon: Coupon, now: Date = new Date()): boolean =>
  coupon.expiresAt !== undefined && new Date(coupon.expiresAt).getTime() < now.getTime();

/** Tiny typed event emitter; the cart is the only user so far. */
export class Emitter<TPayloads extends Record<string, unknown>> {
  private listeners = new Map<keyof TPayloads, Set<Listener<any>>>();

  on<K extends keyof TPayloads>(event: K, fn: Listener<TPayloads[K]>): () => void {
    if (!this.listeners.has(event)) {
      this.listeners.set(event, new Set());
    }
    this.listeners.get(event)!.add(fn);
    return () => this.listeners.get(event)?.delete(fn);
  }

  emit<K extends keyof TPayloads>(event: K, payload: TPayloads[K]): void {
    this.listeners.get(event)?.forEach((fn) => fn(payload));
  }
}

type CartPayloads = {
  changed: { itemCount: number; totalCents: number };
  "coupon-rejected": { code: string; reason: string };
  "stock-limited": { productId: string; allowed: number };
};

export class ShoppingCart {
  private lines = new Map<string, CartLine>();
  private coupon: Coupon | null = null;
  readonly events = new Emitter<CartPayloads>();

  constructor(readonly currency: CurrencyCode = "EUR") {}

  /**
   * Add units of a product. Quantities are capped by the stock shown on the
   * page and by MAX_QUANTITY_PER_LINE; listeners get "stock-limited" when
   * the cap kicks in so the UI can show a hint.
   */
  addItem(product: Product, quantity = 1): number {
    if (product.currency !== this.currency) {
      throw new Error(`cart is in ${this.currency}, product ${product.id} in ${product.currency}`);
    }
    const existing = this.lines.get(product.id);
    const wanted = (existing?.quantity ?? 0) + quantity;
    const allowed = clampQuantity(wanted, product.stock);
    if (allowed < wanted) {
      this.events.emit("stock-limited", { productId: product.id, allowed });
    }
    if (allowed === 0) {
      this.lines.delete(product.id);
    } else {
      this.lines.set(product.id, {
        product,
        quantity: allowed,
        addedAt: existing?.addedAt ?? Date.now(),
      });
    }
    this.notify();
    return allowed;
  }

  removeItem(productId: string): boolean {
    const removed = this.lines.delete(productId);
    if (removed) this.notify();
    return removed;
  }

  /** Set an absolute quantity; zero removes the line. */
  setQuantity(productId: string, quantity: number): void {
    const line = this.lines.get(productId);
    if (!line) return;
    if (quantity <= 0) {
      this.removeItem(productId);
      return;
    }
    line.quantity = clampQuantity(quantity, line.product.stock);
    this.notify();
  }

  /**
   * Try to apply a coupon. Only one coupon can be active; a new valid one
   * replaces the old one.
   */
  applyCoupon(coupon: Coupon, now: Date = new Date()): Result<Coupon> {
    let reason: string | null = null;
    if (isCouponExpired(coupon, now)) {
      reason = "expired";
    } else if (coupon.minSubtotalCents && this.subtotalCents() < coupon.minSubtotalCents) {
      reason = `minimum order ${formatPrice(coupon.minSubtotalCents, this.currency)}`;
    } else if (coupon.kind === "percent" && (coupon.value <= 0 || coupon.value > 100)) {
      reason = "invalid percentage";
    }
    if (reason) {
      this.events.emit("coupon-rejected", { code: coupon.code, reason });
      return { ok: false, error: reason };
    }
    this.coupon = coupon;
    this.notify();
    return { ok: true, value: coupon };
  }

  itemCount(): number {
    return sumBy([...this.lines.values()], (l) => l.quantity);
  }

  subtotalCents(): number {
    return sumBy([...this.lines.values()], (l) => l.product.priceCents * l.quantity);
  }

  /** Discount in cents; never larger than the subtotal. */
  discountCents(): number {
    if (!this.coupon) return 0;
    const subtotal = this.subtotalCents();
    switch (this.coupon.kind) {
      case "percent":
        return Math.round((subtotal * this.coupon.value) / 100);
      case "fixed":
        return Math.min(this.coupon.value, subtotal);
      default:
        return 0;
    }
  }

  /**
   * Shipping by total parcel weight, free above the threshold or with a
   * free-shipping coupon. Products without a weight count as 250 g.
   */
  shippingCents(): number {
    if (this.lines.size === 0) return 0;
    if (this.coupon?.kind === "free_shipping") return 0;
    if (this.subtotalCents() - this.discountCents() >= FREE_SHIPPING_THRESHOLD_CENTS) return 0;
    const grams = sumBy([...this.lines.values()], (l) => (l.product.weightGrams ?? 250) * l.quantity);
    const tier = SHIPPING_TABLE.find((t) => grams <= t.upToGrams)!;
    return tier.cents;
  }

  totalCents(): number {
    return this.subtotalCents() - this.discountCents() + this.shippingCents();
  }

  clear(): void {
    this.lines.clear();
    this.coupon = null;
    this.notify();
  }

  toJSON(): CartSnapshot {
    return {
      currency: this.currency,
      coupon: this.coupon,
      lines: [...this.lines.values()].map((l) => ({
        productId: l.product.id,
        quantity: l.quantity,
        product: l.product,
        addedAt: l.addedAt,
      })),
    };
  }

  /** Restore a cart saved with `toJSON`, dropping lines that are malformed. */
  static fromJSON(snapshot: CartSnapshot): ShoppingCart {
    const cart = new ShoppingCart(snapshot.currency);
    for (const line of snapshot.lines ?? []) {
      if (!line.product || line.quantity <= 0) continue;
      cart.lines.set(line.productId, {
        product: line.product,
        quantity: line.quantity,
        addedAt: line.addedAt,
      });
    }
    cart.coupon = snapshot.coupon ?? null;
    return cart;
  }

  private notify(): void {
    this.events.emit("changed", { itemCount: this.itemCount(), totalCents: this.totalCents() });
  }
}

/** Group arbitrary items by a derived key, keeping insertion order. */
export function groupBy<T, K extends string | number>(items: Iterable<T>, keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const bucket = groups.get(key);
    if (bucket) bucket.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
