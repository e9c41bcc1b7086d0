// Mock of the shop API for local development (`npm run mock`): the Vite dev
// server proxies /api here when staging is down. State lives in memory and
// resets on restart; the seed catalogue is small on purpose.
import express from "express";
import { randomUUID } from "node:crypto";

const app = express();
app.use(express.json());

const catalogue = new Map([
  ["tea-01", { id: "tea-01", title: "Sencha, 100 g", priceCents: 890, currency: "EUR", stock: 42, weightGrams: 120 }],
  ["mug-02", { id: "mug-02", title: "Stoneware mug", priceCents: 1450, currency: "EUR", stock: 3, weightGrams: 380 }],
  ["pot-03", { id: "pot-03", title: "Cast iron teapot", priceCents: 5900, currency: "EUR", stock: 0, weightGrams: 1600 }],
]);
const orders = new Map();
const seenKeys = new Map();

// Slow responses on purpose, so spinners and timeouts can be seen in the UI.
app.use((req, res, next) => {
  const delay = Number(req.query.delay ?? process.env.MOCK_DELAY_MS ?? 0);
  setTimeout(next, Math.min(delay, 10_000));
});

app.get("/api/products", (req, res) => {
  const { q = "", inStock } = req.query;
  const needle = String(q).toLowerCase();
  let items = [...catalogue.values()].filter((p) => p.title.toLowerCase().includes(needle));
  if (inStock === "1") items = items.filter((p) => p.stock > 0);
  res.json({ items, total: items.length });
});

app.get("/api/products/:id", (req, res) => {
  const product = catalogue.get(req.params.id);
  if (!product) return res.status(404).json({ error: `no product ${req.params.id}` });
  res.json(product);
});

// Place an order. The client sends an Idempotency-Key header per order, and
// retries with the same key after a timeout: a repeated key must return the
// first order instead of charging twice.
app.post("/api/orders", (req, res) => {
  const key = req.get("Idempotency-Key");
  if (!key) return res.status(400).json({ error: "Idempotency-Key header required" });
  if (seenKeys.has(key)) return res.status(200).json(orders.get(seenKeys.get(key)));

  const { lines = [], couponCode = null } = req.body ?? {};
  if (!Array.isArray(lines) || lines.length === 0) {
    return res.status(422).json({ error: "an order needs at least one line" });
  }
  const problems = [];
  for (const line of lines) {
    const product = catalogue.get(line.productId);
    if (!product) problems.push(`${line.productId}: unknown product`);
    else if (line.quantity > product.stock) problems.push(`${line.productId}: only ${product.stock} left`);
  }
  if (problems.length) return res.status(409).json({ error: "stock changed", problems });

  for (const line of lines) catalogue.get(line.productId).stock -= line.quantity;
  const order = {
    id: randomUUID(),
    lines,
    couponCode,
    status: "placed",
    placedAt: new Date().toISOString(),
  };
  orders.set(order.id, order);
  seenKeys.set(key, order.id);
  res.status(201).json(order);
});

app.delete("/api/orders/:id", (req, res) => {
  const order = orders.get(req.params.id);
  if (!order) return res.sendStatus(404);
  if (order.status !== "placed") return res.status(409).json({ error: `order is ${order.status}` });
  for (const line of order.lines) catalogue.get(line.productId).stock += line.quantity;
  order.status = "cancelled";
  res.json(order);
});

const port = Number(process.env.MOCK_PORT ?? 8787);
app.listen(port, () => console.log(`mock api on http://localhost:${port}`));
