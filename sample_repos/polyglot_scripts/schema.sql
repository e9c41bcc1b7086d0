-- Reporting database schema (read replica of checkout + warehouse data).
-- Money is stored as integer cents, timestamps in UTC.

CREATE TABLE customers (
    id            BIGSERIAL PRIMARY KEY,
    external_ref  VARCHAR(32) NOT NULL UNIQUE,
    country       CHAR(2)     NOT NULL,
    vat_id        VARCHAR(20),
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE products (
    sku           VARCHAR(20) PRIMARY KEY,
    title         TEXT        NOT NULL,
    category      VARCHAR(16) NOT NULL DEFAULT 'standard',
    unit_cents    INTEGER     NOT NULL CHECK (unit_cents >= 0),
    weight_grams  INTEGER,
    discontinued  BOOLEAN     NOT NULL DEFAULT FALSE
);

CREATE TABLE orders (
    id            BIGSERIAL PRIMARY KEY,
    customer_id   BIGINT      NOT NULL REFERENCES customers(id),
    placed_at     TIMESTAMPTZ NOT NULL,
    priority      SMALLINT    NOT NULL DEFAULT 0,
    status        VARCHAR(16) NOT NULL DEFAULT 'open',
    currency      CHAR(3)     NOT NULL DEFAULT 'EUR'
);

CREATE TABLE order_lines (
    order_id      BIGINT      NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
    line_no       SMALLINT    NOT NULL,
    sku           VARCHAR(20) NOT NULL REFERENCES products(sku),
    quantity      INTEGER     NOT NULL CHECK (quantity > 0),
    unit_cents    INTEGER     NOT NULL,
    refunded      BOOLEAN     NOT NULL DEFAULT FALSE,
    PRIMARY KEY (order_id, line_no)
);

CREATE INDEX idx_orders_placed_at ON orders (placed_at);
CREATE INDEX idx_order_lines_sku ON order_lines (sku);

-- Revenue and refund rate per product category for the last 7 days,
-- used by the weekly category review.
SELECT p.category,
       COUNT(DISTINCT o.id)                                          AS orders,
       SUM(CASE WHEN ol.refunded THEN 0 ELSE ol.quantity * ol.unit_cents END) AS revenue_cents,
       ROUND(100.0 * AVG(CASE WHEN ol.refunded THEN 1 ELSE 0 END), 1) AS refund_pct
FROM order_lines ol
JOIN orders o   ON o.id = ol.order_id
JOIN products p ON p.sku = ol.sku
WHERE o.placed_at >= now() - INTERVAL '7 days'
  AND o.status <> 'cancelled'
GROUP BY p.category
ORDER BY revenue_cents DESC;
