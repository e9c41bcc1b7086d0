import React, { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { formatPrice, Product, ShoppingCart } from "../cart";

export interface ProductCardProps {
  product: Product;
  cart: ShoppingCart;
  /** Strike-through price shown next to the current price, in cents. */
  listPriceCents?: number;
  onOpenDetails?: (productId: string) => void;
  compact?: boolean;
}

type AddState = "idle" | "adding" | "added" | "limited";

/**
 * Keep a value in sync with a media query, e.g. to switch to the compact
 * layout on narrow screens.
 */
export function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(() =>
    typeof window === "undefined" ? false : window.matchMedia(query).matches,
  );

  useEffect(() => {
    const mql = window.matchMedia(query);
    const onChange = (event: MediaQueryListEvent) => setMatches(event.matches);
    mql.addEventListener("change", onChange);
    setMatches(mql.matches);
    return () => mql.removeEventListener("change", onChange);
  }, [query]);

  return matches;
}

/**
 * Subscribe to the cart and return how many units of one product are in
 * it. Re-renders only when that number changes.
 */
export function useQuantityInCart(cart: ShoppingCart, productId: string): number {
  const read = useCallback(
    () => cart.toJSON().lines.find((l) => l.productId === productId)?.quantity ?? 0,
    [cart, productId],
  );
  const [quantity, setQuantity] = useState(read);

  useEffect(() => {
    setQuantity(read());
    return cart.events.on("changed", () => setQuantity(read()));
  }, [cart, read]);

  return quantity;
}

/** Percentage badge ("-25 %") for discounted products. */
export const DiscountBadge = ({ priceCents, listPriceCents }: { priceCents: number; listPriceCents: number }) => {
  if (listPriceCents <= priceCents) return null;
  const pct = Math.round(((listPriceCents - priceCents) / listPriceCents) * 100);
  return <span className="badge badge--sale">-{pct} %</span>;
};

/** Shows "only N left" for low stock, nothing when plenty is available. */
export const StockHint = ({ stock }: { stock: number }) => {
  if (stock === 0) return <p className="stock stock--out">Currently sold out</p>;
  if (stock <= 5) return <p className="stock stock--low">Only {stock} left</p>;
  return null;
};

export function ProductCard({ product, cart, listPriceCents, onOpenDetails, compact }: ProductCardProps) {
  const narrow = useMediaQuery("(max-width: 520px)");
  const inCart = useQuantityInCart(cart, product.id);
  const [state, setState] = useState<AddState>("idle");
  const [quantity, setQuantity] = useState(1);
  const resetTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const remaining = Math.max(0, product.stock - inCart);
  const price = useMemo(() => formatPrice(product.priceCents, product.currency), [product]);

  useEffect(() => () => {
    if (resetTimer.current) clearTimeout(resetTimer.current);
  }, []);

  function handleAddToCart(event: React.MouseEvent<HTMLButtonElement>) {
    event.stopPropagation();
    if (remaining === 0) return;
    setState("adding");

    // Flip the button back to its normal label after a short confirmation.
    const scheduleReset = () => {
      if (resetTimer.current) clearTimeout(resetTimer.current);
      resetTimer.current = setTimeout(() => setState("idle"), 1800);
    };

    const before = inCart;
    const after = cart.addItem(product, quantity);
    setState(after - before < quantity ? "limited" : "added");
    setQuantity(1);
    scheduleReset();
  }

  function handleQuantityInput(event: React.ChangeEvent<HTMLInputElement>) {
    const parsed = Number.parseInt(event.target.value, 10);
    if (Number.isNaN(parsed)) {
      setQuantity(1);
      return;
    }
    setQuantity(Math.min(Math.max(parsed, 1), Math.max(remaining, 1)));
  }

  function handleKeyDown(event: React.KeyboardEvent<HTMLElement>) {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      onOpenDetails?.(product.id);
    }
  }

  const buttonLabel: Record<AddState, string> = {
    idle: inCart > 0 ? `Add more (${inCart} in cart)` : "Add to cart",
    adding: "Adding…",
    added: "Added ✓",
    limited: "Stock limit reached",
  };

  const layout = compact || narrow ? "product-card--compact" : "product-card--full";

  return (
    <article
      className={`product-card ${layout}`}
      tabIndex={0}
      role="link"
      aria-label={product.title}
      onClick={() => onOpenDetails?.(product.id)}
      onKeyDown={handleKeyDown}
    >
      <h3 className="product-card__title">{product.title}</h3>
      <div className="product-card__price">
        <strong>{price}</strong>
        {listPriceCents !== undefined && (
          <>
            <s>{formatPrice(listPriceCents, product.currency)}</s>
            <DiscountBadge priceCents={product.priceCents} listPriceCents={listPriceCents} />
          </>
        )}
      </div>
      <StockHint stock={remaining} />
      {!compact && (
        <input
          type="number"
          min={1}
          max={Math.max(remaining, 1)}
          value={quantity}
          aria-label="Quantity"
          onClick={(e) => e.stopPropagation()}
          onChange={handleQuantityInput}
          disabled={remaining === 0}
        />
      )}
      <button type="button" onClick={handleAddToCart} disabled={remaining === 0 || state === "adding"}>
        {buttonLabel[state]}
      </button>
    </article>
  );
}

export default ProductCard;
