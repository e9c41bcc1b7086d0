# Lyon warehouse services: the stock API that the pick stations and the storefront
# ask for bin levels, the bridge that drives the aisle label printers, and the
# NixOS hosts they run on.
#
#   nix build .#stock-api                          # the API alone
#   nix develop                                    # the ops team's shell
#   nixos-rebuild switch --flake .#stock-lyon-1    # the stock server
{
  description = "Lyon warehouse: stock API, label printer bridge and their hosts";

  inputs = {
    nixpkgs.url = "github:NixOS/nixpkgs/nixos-24.05";
    # The printer boxes' firmware tools are pinned apart: they lag behind.
    printer-tools = {
      url = "git+https://git.lyon-warehouse.example/ops/printer-tools?ref=release-3";
      inputs.nixpkgs.follows = "nixpkgs";
    };
  };

  outputs = { self, nixpkgs, printer-tools, ... }:
    let
      inherit (nixpkgs) lib;

      # The stock server is x86; the label printer boxes are ARM boards.
      systems = [ "x86_64-linux" "aarch64-linux" ];

      forAllSystems = f: lib.genAttrs systems (system: f nixpkgs.legacyPackages.${system});

      /* Stock thresholds shared by the API and the printed shelf labels: the one
         place to change when the buyers move a reorder point. */
      thresholds = {
        lowStock = 12;
        lowStockBulky = 3;
        reorderLeadDays = 4;
      };

      # A pick station's printer box: one per aisle, the same image everywhere but
      # for the aisle code, the printer's address and whether it prints pallet labels.
      mkPrinterBox = aisle: { printer, labelSize ? "100x150", bulky ? false }:
        lib.nixosSystem {
          system = "aarch64-linux";
          specialArgs = { inherit thresholds; };
          modules = [
            self.nixosModules.label-bridge
            printer-tools.nixosModules.default
            ({ pkgs, ... }: {
              networking.hostName = "labels-${aisle}";
              time.timeZone = "Europe/Paris";
              services.label-bridge = {
                enable = true;
                inherit printer labelSize;
                stockApi = "https://stock.lyon-warehouse.example";
                # Pallet labels carry the bulky threshold, shelf labels the usual one.
                lowStock = if bulky then thresholds.lowStockBulky else thresholds.lowStock;
              };
              # The box reboots every night after the stock export, before the first wave.
              systemd.timers.nightly-reboot = {
                wantedBy = [ "timers.target" ];
                timerConfig.OnCalendar = "*-*-* 04:30:00";
              };
              systemd.services.nightly-reboot = {
                serviceConfig.Type = "oneshot";
                script = "${pkgs.systemd}/bin/systemctl reboot";
              };
              users.users.ops = {
                isNormalUser = true;
                extraGroups = [ "wheel" "lp" ];
                openssh.authorizedKeys.keyFiles = [ ./keys/ops.pub ];
              };
              system.stateVersion = "24.05";
            })
          ];
        };
    in
    {
      # The warehouse's own packages, on top of whatever nixpkgs a host uses.
      overlays.default = final: prev: {
        stock-api = final.callPackage ./pkgs/stock-api.nix { };
        label-bridge = final.callPackage ./pkgs/label-bridge.nix { };
      };

      packages = forAllSystems (pkgs: {
        # The stock API: bins, stock levels, reservations for the pick waves.
        stock-api = pkgs.python3Packages.buildPythonApplication rec {
          pname = "stock-api";
          version = "2.4.1";
          pyproject = true;
          src = ./services/stock-api;
          build-system = [ pkgs.python3Packages.hatchling ];
          dependencies = with pkgs.python3Packages; [
            fastapi
            uvicorn
            asyncpg
            pydantic
            prometheus-client
            structlog
          ];
          nativeCheckInputs = [ pkgs.python3Packages.pytestCheckHook ];
          # The reservation tests need a database: they run in the VM test below.
          disabledTestPaths = [ "tests/test_reservations_pg.py" ];
          meta = {
            description = "Stock levels and reservations of the Lyon warehouse";
            mainProgram = "stock-api";
          };
        };

        # Turns the API's label jobs into ZPL for the aisle printers.
        label-bridge = pkgs.stdenv.mkDerivation {
          pname = "label-bridge";
          version = "0.9.3";
          src = ./services/label-bridge;
          nativeBuildInputs = [ pkgs.zig_0_12 ];
          buildInputs = [ pkgs.cups ];
          dontConfigure = true;
          buildPhase = ''
            runHook preBuild
            zig build -Doptimize=ReleaseSafe -Dlow-stock=${toString thresholds.lowStock}
            runHook postBuild
          '';
          installPhase = ''
            runHook preInstall
            install -Dm755 zig-out/bin/label-bridge $out/bin/label-bridge
            install -Dm644 templates/*.zpl -t $out/share/label-bridge/templates
            runHook postInstall
          '';
        };

        default = self.packages.${pkgs.system}.stock-api;
      });

      nixosModules = {
        stock-api = import ./modules/stock-api.nix;
        label-bridge = import ./modules/label-bridge.nix;
      };

      nixosConfigurations = {
        # The stock server in the back office rack.
        stock-lyon-1 = lib.nixosSystem {
          system = "x86_64-linux";
          modules = [
            self.nixosModules.stock-api
            ./hosts/stock-lyon-1/hardware.nix
            {
              services.stock-api = {
                enable = true;
                port = 8081;
                lowStock = thresholds.lowStock;
                exportSuppliers = [ "brossard" "normandie-emballage" "tld-logistique" ];
              };
            }
          ];
        };
        labels-a01 = mkPrinterBox "a01" { printer = "10.20.1.41"; };
        labels-a02 = mkPrinterBox "a02" { printer = "10.20.1.42"; };
        labels-p01 = mkPrinterBox "p01" { printer = "10.20.9.41"; bulky = true; };
      };

      devShells = forAllSystems (pkgs: {
        default = pkgs.mkShell {
          packages = with pkgs; [ python3 postgresql_16 zig_0_12 httpie jq ];
          # The API reads its database from here when run by hand.
          STOCK_DB_URL = "postgresql:///stock_dev";
          shellHook = ''
            echo "stock-api dev shell: run 'uvicorn stock_api.app:app --reload'"
          '';
        };
      });

      checks = forAllSystems (pkgs: {
        inherit (self.packages.${pkgs.system}) stock-api label-bridge;
      });
    };
}
