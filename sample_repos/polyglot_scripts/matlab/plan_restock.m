function plan = plan_restock(ledger, suppliers, options)
%PLAN_RESTOCK Purchase lines for the SKUs a warehouse ledger shows below their reorder point.
%   plan = PLAN_RESTOCK(ledger, suppliers) returns a table with one line per SKU to
%   order: the supplier, the packs, the units and the cost in euros. Each supplier
%   sells in whole packs and has a minimum order value; a supplier whose lines stay
%   under it is left for tomorrow's run and logged.
%
%   plan = PLAN_RESTOCK(..., CoverDays=21) orders enough for three weeks of demand
%   instead of the default fortnight.
%
%   See also StockLedger.
arguments
    ledger (1,1) StockLedger
    suppliers table
    options.CoverDays (1,1) double {mustBePositive} = 14
    options.DailyDemand = containers.Map('KeyType', 'char', 'ValueType', 'double')
    options.Today (1,1) datetime = datetime("today")
end

skus = ledger.belowReorderPoint();
plan = table('Size', [0 6], ...
    'VariableTypes', {'string', 'string', 'double', 'double', 'double', 'datetime'}, ...
    'VariableNames', {'Sku', 'Supplier', 'Packs', 'Units', 'CostEur', 'Arrives'});
skipped = strings(0, 1);

for sku = skus(:)'
    offer = cheapest_offer(suppliers, sku);
    if isempty(offer)
        skipped(end+1) = sku; %#ok<AGROW>
        continue
    end
    shortfall = target_units(sku) - ledger.level(sku);
    if shortfall <= 0
        continue
    end
    packs = packs_for(offer.PackSize, shortfall);
    plan(end+1, :) = {sku, offer.Supplier, packs, packs * offer.PackSize, ...
        order_cost(packs, offer.PackPriceEur), arrival_date(options.Today, offer.LeadDays)}; %#ok<AGROW>
end

% Suppliers under their minimum order value wait for tomorrow's run.
[plan, held] = drop_small_orders(plan, suppliers);
for supplier = held(:)'
    fprintf("restock: %s held back, under its minimum order\n", supplier);
end
if ~isempty(skipped)
    warning("plan_restock:noOffer", "No supplier offers %s.", strjoin(skipped, ", "));
end

    function units = target_units(sku)
        % Units that cover the next CoverDays of demand (the reorder point if unknown).
        key = char(sku);
        if isKey(options.DailyDemand, key)
            units = ceil(options.DailyDemand(key) * options.CoverDays);
        else
            units = 2 * ledger.reorderPoint(sku);
        end
        units = min(units, StockLedger.MaxShelfUnits);
    end
end

function packs = packs_for(packSize, shortfall)
%PACKS_FOR Whole packs that cover a shortfall; a pack left over is cheaper than a trip.
packs = ceil(shortfall / packSize);
end

function offer = cheapest_offer(suppliers, sku)
%CHEAPEST_OFFER The supplier row with the lowest unit price for a SKU, or [] if none.
rows = suppliers(suppliers.Sku == sku, :);
offer = [];
if height(rows) == 0
    return
end
[~, best] = min(rows.PackPriceEur ./ rows.PackSize);
offer = table2struct(rows(best, :));
end

function cost = order_cost(packs, packPriceEur)
% Cost of a line in euros, rounded to the cent as the supplier invoices it.
cost = round(packs * packPriceEur * 100) / 100;
end

function day = arrival_date(today, leadDays)
%ARRIVAL_DATE When a delivery ordered today arrives: suppliers do not deliver at weekends.
day = today + caldays(leadDays);
while isweekend(day)
    day = day + caldays(1);
end
end

function [plan, held] = drop_small_orders(plan, suppliers)
%DROP_SMALL_ORDERS Removes the lines of suppliers whose order stays under their minimum.
held = strings(0, 1);
names = unique(plan.Supplier);
for k = 1:numel(names)
    mine = plan.Supplier == names(k);
    minimum = max(suppliers.MinOrderEur(suppliers.Supplier == names(k)));
    if sum(plan.CostEur(mine)) < minimum
        held(end+1) = names(k); %#ok<AGROW>
        plan(mine, :) = [];
    end
end
end
