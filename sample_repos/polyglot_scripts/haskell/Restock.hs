{-# LANGUAGE OverloadedStrings #-}
-- | Restock planning for the shop's back room.
--
-- Reads the nightly stock counts, compares them with each item's reorder point and
-- prints the purchase orders to send, grouped by supplier. Prices are in euro cents so
-- that rounding never drifts a total by a cent.
module Shop.Restock
  ( Item (..)
  , Supplier (..)
  , Priced (..)
  , reorderQuantity
  , planOrders
  , runRestock
  ) where

import Data.List (sortOn, foldl')
import qualified Data.Map.Strict as Map
import Text.Printf (printf)

-- | A stock-keeping unit, as the shelf label prints it.
newtype Sku = Sku String
  deriving (Eq, Ord, Show)

-- | Money in euro cents.
type Cents = Int

-- | One line of the nightly stock count.
data Item = Item
  { itemSku      :: Sku
  , itemName     :: String
  , onHand       :: Int     -- ^ units counted on the shelf and in the back room
  , reorderPoint :: Int     -- ^ order when stock falls to this many
  , packSize     :: Int     -- ^ the supplier sells whole packs only
  , unitCost     :: Cents
  , supplierId   :: String
  } deriving (Eq, Show)

-- | Who we buy from, and their terms.
data Supplier = Supplier
  { supplierName :: String
  , minimumOrder :: Cents   -- ^ below this the supplier charges a handling fee
  , handlingFee  :: Cents
  } deriving (Eq, Show)

-- | How urgent a reorder is.
data Urgency = Routine | Soon | Critical
  deriving (Eq, Ord, Show)

-- | Anything with a price that can be shown on a purchase order.
class Priced a where
  -- | The price of one unit, in cents.
  unitPrice :: a -> Cents

  -- | The price of @n@ units; suppliers may override it with a volume discount.
  priceOf :: Int -> a -> Cents
  priceOf n x = n * unitPrice x

  -- | A label for the order line.
  describe :: a -> String

instance Priced Item where
  unitPrice = unitCost

  priceOf n item
    | n >= 10 * packSize item = discounted
    | otherwise = n * unitCost item
    where
      discounted = (n * unitCost item * 95) `div` 100

  describe item = itemName item ++ " (" ++ skuText (itemSku item) ++ ")"
    where
      skuText (Sku s) = s

-- | How many units to order so that stock is back above the reorder point, rounded up to
-- whole packs. Nothing to order while stock is above that point.
reorderQuantity :: Item -> Int
reorderQuantity item
  | onHand item > reorderPoint item = 0
  | otherwise = packs * packSize item
  where
    wanted = 2 * reorderPoint item - onHand item
    packs = (wanted + packSize item - 1) `div` packSize item

-- | How urgent an item's reorder is, by how far stock has fallen.
urgency :: Item -> Urgency
urgency item
  | onHand item <= 0 = Critical
  | onHand item * 2 <= reorderPoint item = Soon
  | otherwise = Routine

-- | The order lines for each supplier: items to reorder, most urgent first.
planOrders :: [Item] -> Map.Map String [(Item, Int)]
planOrders items = Map.map (sortOn (negate . rank . fst)) grouped
  where
    grouped = foldl' add Map.empty [(i, q) | i <- items, let q = reorderQuantity i, q > 0]
    add acc (i, q) = Map.insertWith (++) (supplierId i) [(i, q)] acc
    rank i = case urgency i of
      Critical -> 2 :: Int
      Soon -> 1
      Routine -> 0

-- | Cents as euros, the way the purchase orders print them: 1234 is "12,34 €".
formatEuros :: Cents -> String
formatEuros cents = show (cents `div` 100) ++ "," ++ pad (cents `mod` 100) ++ " €"
  where
    pad n = if n < 10 then '0' : show n else show n

-- | Print the purchase orders for one night's counts, one block per supplier, and a
-- summary of what was skipped. Returns the total spent, in cents.
runRestock :: Map.Map String Supplier -> [Item] -> IO Cents
runRestock suppliers items = do
  let plan = planOrders items
      skipped = [i | i <- items, reorderQuantity i == 0]
      critical = [i | i <- items, urgency i == Critical]
  putStrLn "Restock plan"
  putStrLn "============"
  printf "%d items counted, %d to reorder, %d critical\n"
    (length items) (length items - length skipped) (length critical)
  totals <- mapM (printSupplier suppliers) (Map.toList plan)
  let total = sum totals
  putStrLn ""
  putStrLn ("Total to spend: " ++ formatEuros total)
  let byUrgency u = [i | i <- items, reorderQuantity i > 0, urgency i == u]
      soon = byUrgency Soon
      routine = byUrgency Routine
  putStrLn ""
  putStrLn "By urgency:"
  printf "  critical %3d\n" (length critical)
  printf "  soon     %3d\n" (length soon)
  printf "  routine  %3d\n" (length routine)
  let units = sum [q | ls <- Map.elems plan, (_, q) <- ls]
      packs = sum [q `div` packSize i | ls <- Map.elems plan, (i, q) <- ls]
  printf "  %d units in %d packs\n" units packs
  let biggest = take 3 (sortOn (negate . snd) [(i, priceOf q i) | ls <- Map.elems plan, (i, q) <- ls])
  if null biggest
    then return ()
    else do
      putStrLn ""
      putStrLn "Largest lines:"
      mapM_ (\(i, c) -> printf "  %-30s %s\n" (describe i) (formatEuros c)) biggest
  if null critical
    then putStrLn "No item is out of stock."
    else do
      putStrLn "Out of stock — call the supplier today:"
      mapM_ (\i -> putStrLn ("  * " ++ describe i)) critical
  if null skipped
    then return ()
    else do
      putStrLn ""
      printf "%d items above their reorder point:\n" (length skipped)
      mapM_ (\i -> printf "  %-30s %4d on hand\n" (itemName i) (onHand i)) skipped
  let unknown = [s | s <- Map.keys plan, not (Map.member s suppliers)]
  if null unknown
    then return ()
    else do
      putStrLn ""
      putStrLn "Items with no supplier on file (not ordered):"
      mapM_ (\s -> putStrLn ("  - " ++ s)) unknown
  let fees = length [() | (s, ls) <- Map.toList plan, belowMinimum s ls]
  if fees > 0
    then printf "%d orders pay a handling fee; consider waiting a day.\n" fees
    else putStrLn "Every order clears its supplier's minimum."
  putStrLn ""
  putStrLn "Send the orders before 10:00 so they ship the same day."
  putStrLn "Orders sent after that go out with tomorrow's — note it on the sheet."
  return total
  where
    belowMinimum sid ls = case Map.lookup sid suppliers of
      Just s -> sum [priceOf q i | (i, q) <- ls] < minimumOrder s
      Nothing -> False

-- | Print one supplier's order block and return what it costs, fee included.
printSupplier :: Map.Map String Supplier -> (String, [(Item, Int)]) -> IO Cents
printSupplier suppliers (sid, ls) =
  case Map.lookup sid suppliers of
    Nothing -> return 0
    Just s -> do
      putStrLn ""
      putStrLn ("Order for " ++ supplierName s)
      mapM_ line ls
      let subtotal = sum [priceOf q i | (i, q) <- ls]
          fee = if subtotal < minimumOrder s then handlingFee s else 0
      putStrLn ("  subtotal " ++ formatEuros subtotal ++ ", fee " ++ formatEuros fee)
      return (subtotal + fee)
  where
    line (i, q) = printf "  %4d x %-30s %s\n" q (describe i) (formatEuros (priceOf q i))
