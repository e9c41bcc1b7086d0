<#
.SYNOPSIS
    Pushes the Lyon warehouse's stock levels to the storefront every night.

.DESCRIPTION
    Runs on the back-office Windows server as a scheduled task at 02:30. Reads the
    ERP's CSV export, skips the SKUs the storefront does not sell, and posts the
    levels in batches. A failed batch is retried once, then written to the
    dead-letter folder for the morning shift.
#>
using namespace System.Collections.Generic

Set-StrictMode -Version Latest
$ErrorActionPreference = 'Stop'

# How a run treats the levels it reads.
enum SyncMode {
    Full        # every SKU, the nightly run
    Delta       # only the SKUs changed since the last run
    DryRun      # read and compare, post nothing
}

# One line of the ERP export: a SKU, its bin and how many are on the shelf.
class StockLine {
    [string]$Sku
    [string]$Bin
    [int]$OnHand
    [int]$Reserved

    StockLine([string]$sku, [string]$bin, [int]$onHand, [int]$reserved) {
        $this.Sku = $sku.Trim().ToUpperInvariant()
        $this.Bin = $bin
        $this.OnHand = $onHand
        $this.Reserved = $reserved
    }

    # What the storefront may sell: never below zero.
    [int] Available() {
        return [Math]::Max(0, $this.OnHand - $this.Reserved)
    }
}

# Talks to the storefront's stock API; one client per run.
class StorefrontClient {
    [string]$BaseUrl
    hidden [string]$Token
    [int]$BatchSize = 200

    StorefrontClient([string]$baseUrl, [string]$token) {
        $this.BaseUrl = $baseUrl.TrimEnd('/')
        $this.Token = $token
    }

    # Posts one batch; returns the SKUs the storefront refused.
    [string[]] PostBatch([StockLine[]]$lines) {
        $body = @{
            levels = @($lines | ForEach-Object { @{ sku = $_.Sku; available = $_.Available() } })
        } | ConvertTo-Json -Depth 4
        $headers = @{ Authorization = "Bearer $($this.Token)" }
        $reply = Invoke-RestMethod -Method Post -Uri "$($this.BaseUrl)/v1/stock" -Headers $headers `
            -Body $body -ContentType 'application/json; charset=utf-8'
        return @($reply.refused)
    }

    # The SKUs the storefront sells, to skip the rest of the ERP's catalogue.
    [HashSet[string]] SellableSkus() {
        $skus = Invoke-RestMethod -Uri "$($this.BaseUrl)/v1/skus" -Headers @{ Authorization = "Bearer $($this.Token)" }
        return [HashSet[string]]::new([string[]]$skus)
    }
}

<#
.SYNOPSIS
    Reads the ERP's stock export into StockLine objects.
#>
function Read-StockExport {
    [CmdletBinding()]
    param(
        [Parameter(Mandatory)]
        [string]$Path,
        [string]$Delimiter = ';'
    )
    # The ERP writes Windows-1252; "Entrepôt" in the header row says so.
    $rows = Import-Csv -Path $Path -Delimiter $Delimiter -Encoding ([Text.Encoding]::GetEncoding(1252))
    foreach ($row in $rows) {
        [StockLine]::new($row.Article, $row.Emplacement, [int]$row.Stock, [int]$row.Reserve)
    }
}

# Passes on the lines whose SKU the storefront sells.
filter Select-Sellable([HashSet[string]]$Sellable) {
    if ($Sellable.Contains($_.Sku)) { $_ }
}

function Sync-StockLevels {
    <#
    .SYNOPSIS
        Reads the export, compares it with the last run and posts the levels.
    .EXAMPLE
        Sync-StockLevels -ExportPath D:\erp\stock.csv -Mode Delta
    #>
    [CmdletBinding(SupportsShouldProcess)]
    param(
        [Parameter(Mandatory)]
        [string]$ExportPath,
        [SyncMode]$Mode = [SyncMode]::Full,
        [string]$StatePath = 'D:\sync\last-run.json',
        [string]$DeadLetterPath = 'D:\sync\dead-letter'
    )

    begin {
        $client = [StorefrontClient]::new($env:STOREFRONT_URL, $env:STOREFRONT_TOKEN)
        $started = Get-Date
        $posted = 0
        $refused = [List[string]]::new()

        # Writes a batch nobody could post, for the morning shift.
        function Save-DeadLetter([StockLine[]]$batch, [string]$reason) {
            $name = 'batch-{0:yyyyMMdd-HHmmss}.json' -f (Get-Date)
            @{ reason = $reason; lines = $batch } | ConvertTo-Json -Depth 3 |
                Set-Content -Path (Join-Path $DeadLetterPath $name) -Encoding utf8
        }
    }

    process {
        $sellable = $client.SellableSkus()
        $lines = @(Read-StockExport -Path $ExportPath | Select-Sellable -Sellable $sellable)
        Write-Verbose "$($lines.Count) sellable lines in $ExportPath"

        if ($Mode -eq [SyncMode]::Delta -and (Test-Path $StatePath)) {
            $previous = Get-Content $StatePath -Raw | ConvertFrom-Json -AsHashtable
            $lines = @($lines | Where-Object { $previous[$_.Sku] -ne $_.Available() })
            Write-Verbose "$($lines.Count) lines changed since the last run"
        }

        if ($Mode -eq [SyncMode]::DryRun) {
            $lines | Sort-Object Sku | Format-Table 'Sku', 'Bin', 'OnHand', 'Reserved' -AutoSize
            return
        }

        for ($at = 0; $at -lt $lines.Count; $at += $client.BatchSize) {
            $last = [Math]::Min($at + $client.BatchSize, $lines.Count) - 1
            $batch = $lines[$at..$last]
            if (-not $PSCmdlet.ShouldProcess("$($batch.Count) SKUs", 'post stock levels')) {
                continue
            }
            try {
                $refused.AddRange([string[]]$client.PostBatch($batch))
            }
            catch {
                Write-Warning "batch at $at failed, retrying once: $($_.Exception.Message)"
                Start-Sleep -Seconds 5
                try {
                    $refused.AddRange([string[]]$client.PostBatch($batch))
                }
                catch {
                    Save-DeadLetter -batch $batch -reason $_.Exception.Message
                    continue
                }
            }
            $posted += $batch.Count
        }

        $state = @{}
        foreach ($line in $lines) { $state[$line.Sku] = $line.Available() }
        $state | ConvertTo-Json | Set-Content -Path $StatePath -Encoding utf8
    }

    end {
        $elapsed = (Get-Date) - $started
        Write-Host ("{0} niveaux envoyés, {1} refusés, en {2:n0} s" -f $posted, $refused.Count, $elapsed.TotalSeconds)
        if ($refused.Count -gt 0) {
            Write-Warning ("refused: " + ($refused -join ', '))
        }
    }
}

$mode = if ($args.Count -gt 1) { [SyncMode]$args[1] } else { [SyncMode]::Full }
Sync-StockLevels -ExportPath $args[0] -Mode $mode
