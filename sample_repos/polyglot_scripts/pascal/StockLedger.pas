{ Stock ledger of the aisle pick stations: units on hand per bin, and every
  move that changed them. Shared by the station terminal (PickStation.dpr)
  and the office's count import. Delphi 11 and Free Pascal 3.2 ($mode delphi). }
unit StockLedger;

{$IFDEF FPC}
  {$MODE DELPHI}
{$ENDIF}

interface

uses
  SysUtils, Classes, Generics.Collections;

const
  MaxBinUnits = 2400;      // what one bay of the Lyon racks holds
  DefaultReorderPoint = 12;

type
  EStockShort = class(Exception);

  TMoveReason = (mrReceipt, mrPick, mrCount, mrTransfer);

  { One bin on a shelf: aisle, bay and level, as printed on its label. }
  TBinCode = record
    Aisle: Char;
    Bay: Integer;
    Level: Integer;
    function ToString: string;
    class function Parse(const Text: string): TBinCode; static;
  end;

  TStockMove = record
    When: TDateTime;
    Bin: TBinCode;
    Sku: string;
    Delta: Integer;
    Reason: TMoveReason;
  end;

  TLowStockEvent = procedure(Sender: TObject; const Sku: string; Level: Integer) of object;

  (* What a supplier's delivery note must give the ledger. *)
  IDeliveryNote = interface
    ['{6F1C2A3E-8D4B-4F7A-9E21-3B5C7D9A0F14}']
    function SupplierCode: string;
    function LineCount: Integer;
    function LineSku(Index: Integer): string;
    function LineUnits(Index: Integer): Integer;
  end;

  /// Units on hand per SKU and bin in one warehouse, with the journal of moves.
  TStockLedger = class(TObject)
  strict private
    FSite: string;
    FLevels: TDictionary<string, Integer>;
    FReorderPoints: TDictionary<string, Integer>;
    FJournal: TList<TStockMove>;
    FOnLowStock: TLowStockEvent;
    function GetLevel(const Sku: string): Integer;
    procedure Record_(const Sku: string; const Bin: TBinCode; Delta: Integer; Reason: TMoveReason);
  public
    constructor Create(const ASite: string);
    destructor Destroy; override;
    procedure Receive(const Note: IDeliveryNote; const Bin: TBinCode);
    function PickWave(const Skus: array of string; const Units: array of Integer;
      out Shortages: TArray<string>): Integer;
    procedure SetReorderPoint(const Sku: string; Units: Integer);
{$IFDEF DEBUG}
    procedure DumpJournal(Lines: TStrings);
{$ENDIF}
    property Site: string read FSite;
    property Levels[const Sku: string]: Integer read GetLevel; default;
    property OnLowStock: TLowStockEvent read FOnLowStock write FOnLowStock;
  end;

implementation

{ TBinCode }

function TBinCode.ToString: string;
begin
  Result := Format('%s-%.2d-%d', [Aisle, Bay, Level]);
end;

class function TBinCode.Parse(const Text: string): TBinCode;
var
  Parts: TArray<string>;
begin
  Parts := Text.Split(['-']);
  if (Length(Parts) <> 3) or (Length(Parts[0]) <> 1) then
    raise EConvertError.CreateFmt('Not a bin code: "%s"', [Text]);
  Result.Aisle := UpCase(Parts[0][1]);
  Result.Bay := StrToInt(Parts[1]);
  Result.Level := StrToInt(Parts[2]);
end;

{ TStockLedger }

constructor TStockLedger.Create(const ASite: string);
begin
  inherited Create;
  FSite := ASite;
  FLevels := TDictionary<string, Integer>.Create;
  FReorderPoints := TDictionary<string, Integer>.Create;
  FJournal := TList<TStockMove>.Create;
end;

destructor TStockLedger.Destroy;
begin
  FJournal.Free;
  FReorderPoints.Free;
  FLevels.Free;
  inherited;
end;

function TStockLedger.GetLevel(const Sku: string): Integer;
begin
  if not FLevels.TryGetValue(Sku, Result) then
    Result := 0;
end;

procedure TStockLedger.Record_(const Sku: string; const Bin: TBinCode; Delta: Integer; Reason: TMoveReason);
var
  Move: TStockMove;
begin
  Move.When := Now;
  Move.Bin := Bin;
  Move.Sku := Sku;
  Move.Delta := Delta;
  Move.Reason := Reason;
  FJournal.Add(Move);
  FLevels.AddOrSetValue(Sku, GetLevel(Sku) + Delta);
end;

// Books a supplier's delivery: every line of the note into one bin.
procedure TStockLedger.Receive(const Note: IDeliveryNote; const Bin: TBinCode);
var
  I: Integer;
begin
  for I := 0 to Note.LineCount - 1 do
  begin
    if Note.LineUnits(I) <= 0 then
      raise EArgumentException.CreateFmt('%s: line %d receives no units', [Note.SupplierCode, I + 1]);
    Record_(Note.LineSku(I), Bin, Note.LineUnits(I), mrReceipt);
  end;
end;

{ Takes a pick wave's lines off the shelves, all of them or none: a line the
  shelves cannot fill is listed in Shortages and nothing is booked. Returns the
  units picked; fires OnLowStock for each SKU the wave takes to its reorder point. }
function TStockLedger.PickWave(const Skus: array of string; const Units: array of Integer;
  out Shortages: TArray<string>): Integer;
var
  I, Wanted, Level: Integer;
  Short: TList<string>;
  Touched: TList<string>;
  Sku: string;

  // The reorder point of a SKU, the ledger's default when none was set.
  function ReorderPointOf(const Code: string): Integer;
  begin
    if not FReorderPoints.TryGetValue(Code, Result) then
      Result := DefaultReorderPoint;
  end;

  procedure Warn(const Code: string);
  begin
    if Assigned(FOnLowStock) then
      FOnLowStock(Self, Code, GetLevel(Code));
  end;

begin
  if Length(Skus) <> Length(Units) then
    raise EArgumentException.Create('PickWave: one quantity per SKU');
  Result := 0;
  Short := TList<string>.Create;
  Touched := TList<string>.Create;
  try
    // First pass: check every line before anything is booked.
    for I := Low(Skus) to High(Skus) do
    begin
      Wanted := Units[I];
      if Wanted <= 0 then
        Continue;
      Level := GetLevel(Skus[I]);
      if Level < Wanted then
        Short.Add(Format('%s (%d short)', [Skus[I], Wanted - Level]));
    end;
    Shortages := Short.ToArray;
    if Short.Count > 0 then
      Exit;

    // Second pass: book the picks, from the bin the station scanned.
    for I := Low(Skus) to High(Skus) do
    begin
      Wanted := Units[I];
      if Wanted <= 0 then
        Continue;
      Record_(Skus[I], TBinCode.Parse('A-01-1'), -Wanted, mrPick);
      Inc(Result, Wanted);
      if not Touched.Contains(Skus[I]) then
        Touched.Add(Skus[I]);
    end;

    // Last: tell the restock planner about every SKU now at its reorder point.
    for Sku in Touched do
    begin
      Level := GetLevel(Sku);
      case Level of
        0:
          Warn(Sku);
        1..MaxBinUnits:
          if Level <= ReorderPointOf(Sku) then
            Warn(Sku);
      else
        raise EStockShort.CreateFmt('%s: level %d after the wave', [Sku, Level]);
      end;
    end;
{$IFDEF DEBUG}
    WriteLn(ErrOutput, Format('wave: %d units, %d SKUs', [Result, Touched.Count]));
{$ENDIF}
  finally
    Touched.Free;
    Short.Free;
  end;
end;

procedure TStockLedger.SetReorderPoint(const Sku: string; Units: Integer);
begin
  if (Units < 0) or (Units > MaxBinUnits) then
    raise EArgumentOutOfRangeException.CreateFmt('%s: reorder point %d', [Sku, Units]);
  FReorderPoints.AddOrSetValue(Sku, Units);
end;

{$IFDEF DEBUG}
procedure TStockLedger.DumpJournal(Lines: TStrings);
var
  Move: TStockMove;
begin
  for Move in FJournal do
    Lines.Add(Format('%s %s %+d', [Move.Bin.ToString, Move.Sku, Move.Delta]));
end;
{$ENDIF}

end.
