classdef StockLedger < handle
    %STOCKLEDGER Units on hand per SKU in one warehouse, and every move that changed them.
    %   ledger = StockLedger("LYON-1") starts an empty ledger for the Lyon warehouse.
    %   Goods received raise a level, picked orders lower it; a level that drops to its
    %   reorder point fires LowStock, which the restock planner listens to.
    %
    %   See also plan_restock.

    properties (SetAccess = private)
        Site string = ""                 % warehouse code, e.g. "LYON-1"
        Levels = containers.Map('KeyType', 'char', 'ValueType', 'double')
        ReorderPoints = containers.Map('KeyType', 'char', 'ValueType', 'double')
        Moves table = table()            % one row per receipt, pick or count
    end

    properties (Constant)
        MaxShelfUnits = 2400             % what one bay of the Lyon racks holds
    end

    properties (Dependent)
        SkuCount                         % SKUs with a level, zero included
    end

    events
        LowStock                         % a level reached its reorder point
        Restocked                        % a receipt lifted a level above it
    end

    methods
        function obj = StockLedger(site)
            %STOCKLEDGER An empty ledger for one warehouse site.
            arguments
                site (1,1) string
            end
            obj.Site = site;
            obj.Moves = table('Size', [0 5], ...
                'VariableTypes', {'datetime', 'string', 'double', 'string', 'string'}, ...
                'VariableNames', {'When', 'Sku', 'Delta', 'Reason', 'Reference'});
        end

        function receive(obj, sku, quantity, reference)
            %RECEIVE Books goods received from a supplier's delivery.
            if quantity <= 0
                error("StockLedger:badQuantity", "A receipt adds units: got %d.", quantity);
            end
            before = obj.level(sku);
            obj.Levels(char(sku)) = before + quantity;
            obj.record(sku, quantity, "receipt", reference);
            if before <= obj.reorderPoint(sku) && obj.level(sku) > obj.reorderPoint(sku)
                notify(obj, "Restocked");
            end
        end

        function pick(obj, order)
            %PICK Takes an order's lines off the shelves, all of them or none.
            %   The order is a struct with fields Id, Skus and Quantities; a line the
            %   shelves cannot fill stops the pick before anything is booked.
            short = strings(0, 1);
            for k = 1:numel(order.Skus)
                if obj.level(order.Skus(k)) < order.Quantities(k)
                    short(end+1) = order.Skus(k); %#ok<AGROW>
                end
            end
            if ~isempty(short)
                error("StockLedger:short", "Order %s is short of %s.", order.Id, strjoin(short, ", "));
            end
            for k = 1:numel(order.Skus)
                sku = char(order.Skus(k));
                obj.Levels(sku) = obj.Levels(sku) - order.Quantities(k);
                obj.record(order.Skus(k), -order.Quantities(k), "pick", order.Id);
                if obj.Levels(sku) <= obj.reorderPoint(sku)
                    notify(obj, "LowStock");
                end
            end
        end

        function units = level(obj, sku)
            %LEVEL Units on hand of one SKU (0 for a SKU never received).
            key = char(sku);
            units = 0;
            if isKey(obj.Levels, key)
                units = obj.Levels(key);
            end
        end

        function setReorderPoint(obj, sku, units)
            %SETREORDERPOINT The level at or below which the SKU is restocked.
            obj.ReorderPoints(char(sku)) = max(0, units);
        end

        function units = reorderPoint(obj, sku)
            key = char(sku);
            units = 0;
            if isKey(obj.ReorderPoints, key)
                units = obj.ReorderPoints(key);
            end
        end

        function skus = belowReorderPoint(obj)
            %BELOWREORDERPOINT SKUs at or under their reorder point, lowest cover first.
            keys = string(obj.ReorderPoints.keys());
            cover = arrayfun(@(s) obj.level(s) / max(1, obj.reorderPoint(s)), keys);
            skus = keys(cover <= 1);
            [~, order] = sort(cover(cover <= 1));
            skus = skus(order);
        end

        function n = get.SkuCount(obj)
            n = obj.Levels.Count;
        end

        function set.Site(obj, site)
            if strlength(site) == 0
                error("StockLedger:site", "A ledger belongs to a warehouse site.");
            end
            obj.Site = upper(site);
        end
    end

    methods (Static)
        function ledger = fromCount(site, counts)
            %FROMCOUNT A ledger opened from a stocktake: a table with Sku and Units.
            ledger = StockLedger(site);
            for row = 1:height(counts)
                sku = counts.Sku(row);
                ledger.Levels(char(sku)) = counts.Units(row);
                ledger.record(sku, counts.Units(row), "count", "stocktake");
            end
        end
    end

    methods (Access = private)
        function record(obj, sku, delta, reason, reference)
            % Appends one move to the history; the history is what the auditors read.
            move = {datetime("now"), string(sku), delta, string(reason), string(reference)};
            obj.Moves(end+1, :) = move;
        end
    end
end
