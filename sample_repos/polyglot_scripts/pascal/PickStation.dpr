{ The aisle pick station's console: scans a wave's lines, books them in the
  stock ledger, prints what is short. Run by the station PC at each bay. }
program PickStation;

{$APPTYPE CONSOLE}
{$R *.res}

uses
  SysUtils,
  Classes,
  StockLedger in 'StockLedger.pas';

const
  StationSite = 'LYON-1';
  DefaultWaveFile = 'wave.csv';

type
  { Prints the low-stock warnings on the station's screen, in red when it can. }
  TStationScreen = class
  private
    FWarnings: Integer;
  public
    procedure LowStock(Sender: TObject; const Sku: string; Level: Integer);
    property Warnings: Integer read FWarnings;
  end;

var
  Ledger: TStockLedger;
  Screen: TStationScreen;
  Skus: TArray<string>;
  Units: TArray<Integer>;
  Shortages: TArray<string>;
  Picked: Integer;
  WaveFile: string;

procedure TStationScreen.LowStock(Sender: TObject; const Sku: string; Level: Integer);
begin
  Inc(FWarnings);
  WriteLn(Format('LOW STOCK %s: %d left, restock requested', [Sku, Level]));
end;

// Reads a wave file of "sku;units" lines; blank lines and # comments are skipped.
procedure LoadWave(const FileName: string; out Codes: TArray<string>; out Counts: TArray<Integer>);
var
  Lines: TStringList;
  Line: string;
  Fields: TArray<string>;
  N: Integer;
begin
  Lines := TStringList.Create;
  try
    Lines.LoadFromFile(FileName);
    SetLength(Codes, Lines.Count);
    SetLength(Counts, Lines.Count);
    N := 0;
    for Line in Lines do
    begin
      if (Trim(Line) = '') or Line.StartsWith('#') then
        Continue;
      Fields := Line.Split([';']);
      Codes[N] := Trim(Fields[0]);
      Counts[N] := StrToIntDef(Trim(Fields[1]), 0);
      Inc(N);
    end;
    SetLength(Codes, N);
    SetLength(Counts, N);
  finally
    Lines.Free;
  end;
end;

function ShortageReport(const Lines: TArray<string>): string;
var
  Line: string;
begin
  Result := '';
  for Line in Lines do
    Result := Result + '  - ' + Line + sLineBreak;
end;

(* Prints how the station runs it; the bay's scanner script passes the wave file. *)
procedure PrintUsage;
begin
  WriteLn('usage: PickStation [wave-file]');
  WriteLn('  reads "sku;units" lines, default ', DefaultWaveFile);
end;

begin
  if (ParamCount > 1) or ((ParamCount = 1) and (ParamStr(1) = '-h')) then
  begin
    PrintUsage;
    Halt(1);
  end;
  WaveFile := DefaultWaveFile;
  if ParamCount = 1 then
    WaveFile := ParamStr(1);
  Ledger := TStockLedger.Create(StationSite);
  Screen := TStationScreen.Create;
  try
    Ledger.OnLowStock := Screen.LowStock;
    LoadWave(WaveFile, Skus, Units);
    Picked := Ledger.PickWave(Skus, Units, Shortages);
    if Length(Shortages) > 0 then
    begin
      WriteLn('Wave not picked, short lines:');
      Write(ShortageReport(Shortages));
      ExitCode := 2;
    end
    else
      WriteLn(Format('%d units picked, %d low-stock warnings', [Picked, Screen.Warnings]));
  finally
    Screen.Free;
    Ledger.Free;
  end;
end.
