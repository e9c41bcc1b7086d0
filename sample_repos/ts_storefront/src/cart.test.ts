import { beforeEach, describe, expect, it, vi } from "vitest";

import { FREE_SHIPPING_THRESHOLD_CENTS, MAX_QUANTITY_PER_LINE, ShoppingCart, type Product } from "./cart";

const tea: Product = { id: "tea-01", title: "Sencha", priceCents: 890, currency: "EUR", stock: 42, weightGrams: 120 };
const mug: Product = { id: "mug-02", title: "Mug", priceCents: 1450, currency: "EUR", stock: 3, weightGrams: 380 };
const pot: Product = { id: "pot-03", title: "Teapot", priceCents: 5900, currency: "EUR", stock: 5, weightGrams: 1600 };

describe("ShoppingCart", () => {
  let cart: ShoppingCart;

  beforeEach(() => {
    cart = new ShoppingCart("EUR");
  });

  describe("addItem", () => {
    it("caps the quantity at the stock and tells listeners", () => {
      const limited = vi.fn();
      cart.events.on("stock-limited", limited);
      expect(cart.addItem(mug, 5)).toBe(3);
      expect(limited).toHaveBeenCalledWith({ productId: "mug-02", allowed: 3 });
    });

    it("never goes above the per-line maximum", () => {
      expect(cart.addItem(tea, 100)).toBe(MAX_QUANTITY_PER_LINE);
    });

    it("refuses a product priced in another currency", () => {
      expect(() => cart.addItem({ ...tea, currency: "USD" })).toThrow(/cart is in EUR/);
    });
  });

  describe("applyCoupon", () => {
    it("rejects an expired coupon and keeps the total", () => {
      cart.addItem(tea, 2);
      const result = cart.applyCoupon(
        { code: "OLD", kind: "percent", value: 10, expiresAt: "2020-01-01" },
        new Date("2024-06-01"),
      );
      expect(result).toEqual({ ok: false, error: "expired" });
      expect(cart.discountCents()).toBe(0);
    });

    it("applies a percentage to the subtotal", () => {
      cart.addItem(tea, 2);
      expect(cart.applyCoupon({ code: "TEN", kind: "percent", value: 10 }).ok).toBe(true);
      expect(cart.discountCents()).toBe(178);
    });

    it("names the minimum order when the subtotal is too low", () => {
      cart.addItem(tea, 1);
      const result = cart.applyCoupon({ code: "BIG", kind: "fixed", value: 500, minSubtotalCents: 3000 });
      expect(!result.ok && result.error).toMatch(/^minimum order/);
    });
  });

  describe("shippingCents", () => {
    it("charges by parcel weight", () => {
      cart.addItem(mug, 2); // 760 g for 29 EUR: below the free-shipping threshold
      expect(cart.shippingCents()).toBe(595);
    });

    it("is free above the threshold", () => {
      cart.addItem(pot, 1);
      expect(cart.subtotalCents()).toBeGreaterThanOrEqual(FREE_SHIPPING_THRESHOLD_CENTS);
      expect(cart.shippingCents()).toBe(0);
    });
  });

  it("survives a round trip through JSON, dropping malformed lines", () => {
    cart.addItem(tea, 2);
    const snapshot = cart.toJSON();
    snapshot.lines.push({ productId: "ghost", quantity: 0, product: tea, addedAt: 0 });
    const restored = ShoppingCart.fromJSON(snapshot);
    expect(restored.itemCount()).toBe(2);
    expect(restored.totalCents()).toBe(cart.totalCents());
  });
});
