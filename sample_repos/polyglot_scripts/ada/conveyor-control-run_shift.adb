--  The shift loop of the outbound conveyor, in a file of its own: it is
--  the part of the controller the dock team changes most (hold rules, the
--  drain time), and the station PC calls nothing else once per shift.

--  Each parcel the tunnel reports is weighed, checked and queued for its
--  chute; a full chute holds the belt until the dock team swaps its cage;
--  after the last parcel the belt drains for a minute.
separate (Conveyor.Control)
procedure Run_Shift
  (Shift_End        : Time;
   Parcels_Expected : Natural;
   Totals           : out Shift_Totals)
is
   Belt_Speed_Mm_S : constant Positive := 1_200;
   Drain_Time      : constant Duration := 60.0;
   Scanned         : Parcel;
   Held            : Boolean := False;

   --  Chutes whose cage must be swapped before the belt may run again.
   function Full_Chutes return Natural is
      N : Natural := 0;
   begin
      for C of Chutes loop
         if Is_Full (C) then
            N := N + 1;
         end if;
      end loop;
      return N;
   end Full_Chutes;

   --  Unreadable, over 31.5 kg for a parcel carrier, or bound for a full
   --  chute: the overflow chute takes it.
   function Needs_Overflow (P : Parcel) return Boolean is
     (P.Rejected
      or else (P.Shipped_By /= Pallet_Freight and then P.Weight > 31_500)
      or else Is_Full (Chutes (Chute_Of (P.Shipped_By))));

   procedure Tally (P : Parcel) is
   begin
      Totals.Scanned := Totals.Scanned + 1;
      if P.Rejected then
         Totals.To_Overflow := Totals.To_Overflow + 1;
      else
         Totals.Diverted := Totals.Diverted + 1;
         Totals.Per_Carrier (P.Shipped_By) := Totals.Per_Carrier (P.Shipped_By) + 1;
      end if;
   end Tally;

begin
   Totals := (others => <>);
   Queue.Clear;
   Belt := Running;
   Beacon.Set (Belt, 0);
   Line_Sorter.Start (Belt_Speed_Mm_S);

   Shift : while Clock < Shift_End and then Totals.Scanned < Parcels_Expected loop
      --  Hold the belt while a cage is full; the dock team's swap shows on
      --  the chute's counter.
      if Full_Chutes > 0 then
         if not Held then
            Line_Sorter.Pause;
            Held := True;
            Belt := Draining;
            Beacon.Set (Belt, Full_Chutes);
         end if;
         for C in Chutes'Range loop
            if Conveyor.IO.Cage_Swapped (Natural (C)) then
               Empty (Chutes (C));
            end if;
         end loop;
         delay 1.0;
      else
         if Held then
            Line_Sorter.Start (Belt_Speed_Mm_S);
            Held := False;
            Belt := Running;
            Beacon.Set (Belt, 0);
         end if;

         if Conveyor.IO.Tunnel_Has_Parcel then
            Scanned := (Tracking   => Conveyor.IO.Label_Text,
                        Shipped_By => Carrier'Val (Conveyor.IO.Label_Carrier),
                        Weight     => Conveyor.IO.Scale_Grams,
                        From_Aisle => Aisle_Id (Conveyor.IO.Label_Aisle),
                        Fragile    => Conveyor.IO.Label_Fragile,
                        Rejected   => not Conveyor.IO.Label_Read);
            Scanned.Rejected := Needs_Overflow (Scanned);
            Weight_Average.Push (Scanned.Weight);
            Tally (Scanned);
            select
               Queue.Put (Scanned);
            or
               delay Jam_Timeout;
               raise Jam_Error with "queue full at " & Scanned.Tracking;
            end select;
         else
            delay 0.02;
         end if;
      end if;
   end loop Shift;

   --  Drain: what is on the belt still reaches its chute.
   Belt := Draining;
   Beacon.Set (Belt, Full_Chutes);
   declare
      Drain_End : constant Time := Clock + Drain_Time;
   begin
      while Queue.Count > 0 and then Clock < Drain_End loop
         delay 0.1;
      end loop;
   end;
   Line_Sorter.Stop;
   Belt := Stopped;
   Beacon.Set (Belt, Full_Chutes);
   Totals.Average_Weight := Weight_Average.Current;

exception
   when Jam_Error =>
      Totals.Jams := Totals.Jams + 1;
      Belt := Jammed;
      Beacon.Set (Belt, Full_Chutes);
      raise;
end Run_Shift;
