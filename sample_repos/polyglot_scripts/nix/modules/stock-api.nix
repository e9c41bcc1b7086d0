# NixOS module of the stock API: the service, its database, the nightly stock
# export the buyers order from, and the reverse proxy the pick stations reach.
{ config, lib, pkgs, ... }:

let
  cfg = config.services.stock-api;
  inherit (lib) mkEnableOption mkIf mkOption types;

  # The API and the export job read one settings file, written from the options.
  settingsFile = pkgs.writeText "stock-api.toml" ''
    [stock]
    warehouse = "${cfg.warehouse}"
    low_stock = ${toString cfg.lowStock}

    [reservations]
    hold_minutes = ${toString cfg.holdMinutes}
  '';

  /* The nightly export: one CSV per supplier of the SKUs at or under their
     reorder point, gzipped into the buyers' share, with a summary line per
     supplier in the journal. Old exports are pruned after `keepDays`. */
  mkExportScript = { suppliers, outDir, keepDays ? 14 }:
    let
      day = "$(date +%F)";
      supplierList = lib.concatStringsSep " " suppliers;
      query = supplier: ''
        \copy (
          SELECT s.sku, s.description, b.aisle, b.bin, b.on_hand, s.reorder_point,
                 s.pack_size,
                 greatest(s.reorder_point * 2 - b.on_hand, s.pack_size) AS order_qty
          FROM stock_levels b
          JOIN skus s USING (sku)
          WHERE s.supplier = '${supplier}'
            AND b.on_hand <= s.reorder_point
          ORDER BY b.aisle, b.bin
        ) TO STDOUT WITH (FORMAT csv, HEADER true)
      '';
    in
    pkgs.writeShellApplication {
      name = "stock-export";
      runtimeInputs = with pkgs; [
        config.services.postgresql.package
        coreutils
        findutils
        gzip
        util-linux
      ];
      text = ''
        set -euo pipefail
        out="${outDir}/${day}"
        mkdir -p "$out"

        # One lock for the whole export: a late run must not overlap the next one.
        exec 9>"${outDir}/.lock"
        flock -n 9 || { echo "export already running" >&2; exit 1; }

        total=0
        for supplier in ${supplierList}; do
          file="$out/$supplier.csv"
          psql --no-psqlrc --quiet -d stock <<'SQL' > "$file"
        ${lib.concatMapStrings query suppliers}
        SQL
          lines=$(($(wc -l < "$file") - 1))
          total=$((total + lines))
          if [ "$lines" -eq 0 ]; then
            # Nothing to order from this supplier tonight: no empty file for the buyers.
            rm -f "$file"
            continue
          fi
          gzip -f "$file"
          echo "export: $supplier: $lines SKUs to reorder"
        done

        # The summary the buyers read first in the morning.
        {
          echo "Reorder export ${day} for ${cfg.warehouse}"
          echo "SKUs at or under their reorder point: $total"
          ls -1 "$out"
        } > "$out/SUMMARY.txt"

        # The buyers keep two weeks of exports; older ones go.
        find "${outDir}" -mindepth 1 -maxdepth 1 -type d -mtime +${toString keepDays} \
          -exec rm -rf {} +
      '';
    };
in
{
  options.services.stock-api = {
    enable = mkEnableOption "the Lyon warehouse stock API";

    # The pick stations reach the API through nginx; this port stays local.
    port = mkOption {
      type = types.port;
      default = 8081;
      description = "Local port the API listens on.";
    };

    warehouse = mkOption {
      type = types.str;
      default = "LYON-1";
      description = "Warehouse code printed on labels and exports.";
    };

    lowStock = mkOption {
      type = types.ints.positive;
      default = 12;
      description = "Units left in a bin under which a restock request is filed.";
    };

    holdMinutes = mkOption {
      type = types.ints.between 5 120;
      default = 30;
      description = "Minutes a pick wave's reservation holds its stock.";
    };

    exportSuppliers = mkOption {
      type = types.listOf types.str;
      default = [ ];
      example = [ "brossard" "tld-logistique" ];
      description = "Suppliers who get a nightly reorder CSV.";
    };
  };

  config = mkIf cfg.enable {
    users.users.stock-api = {
      isSystemUser = true;
      group = "stock-api";
    };
    users.groups.stock-api = { };

    services.postgresql = {
      enable = true;
      ensureDatabases = [ "stock" ];
      ensureUsers = [
        {
          name = "stock-api";
          ensureDBOwnership = false;
        }
      ];
    };

    systemd.services.stock-api = {
      description = "Lyon warehouse stock API";
      after = [ "network.target" "postgresql.service" ];
      requires = [ "postgresql.service" ];
      wantedBy = [ "multi-user.target" ];
      environment = {
        STOCK_SETTINGS = settingsFile;
        STOCK_DB_URL = "postgresql:///stock?host=/run/postgresql";
      };
      serviceConfig = {
        ExecStart = "${pkgs.stock-api}/bin/stock-api --port ${toString cfg.port}";
        User = "stock-api";
        Restart = "on-failure";
        # The API writes nothing to disk: everything lives in the database.
        ProtectSystem = "strict";
        ProtectHome = true;
        PrivateTmp = true;
        NoNewPrivileges = true;
      };
    };

    # The export runs after the last evening wave and before the buyers arrive.
    systemd.services.stock-export = mkIf (cfg.exportSuppliers != [ ]) {
      description = "Nightly reorder export for the buyers";
      serviceConfig = {
        Type = "oneshot";
        User = "stock-api";
        ExecStart = lib.getExe (mkExportScript {
          suppliers = cfg.exportSuppliers;
          outDir = "/srv/buyers/exports";
        });
      };
      startAt = "*-*-* 02:15:00";
    };

    services.nginx = {
      enable = true;
      recommendedProxySettings = true;
      recommendedTlsSettings = true;
      virtualHosts."stock.lyon-warehouse.example" = {
        enableACME = true;
        forceSSL = true;
        locations."/".proxyPass = "http://127.0.0.1:${toString cfg.port}";
        # Only the warehouse network may reserve stock.
        locations."/reservations".extraConfig = ''
          allow 10.20.0.0/16;
          deny all;
        '';
      };
    };

    networking.firewall.allowedTCPPorts = [ 80 443 ];
  };
}
