// Outbound conveyor of the Lyon warehouse: the scanner tunnel reads each
// parcel's label and scale, the sorter picks a chute from the destination
// zone, and the chute's diverter paddle swings out when the parcel's leading
// edge reaches that chute's photo-eye.

`timescale 1ns / 1ps
`define SORTER_CHUTES 8

// Types and helpers shared by the sorter, the tunnel model and the testbench.
package sorter_pkg;
  localparam int unsigned CHUTES = `SORTER_CHUTES;
  localparam int unsigned REJECT = CHUTES - 1;  // the last chute takes what cannot be sorted

  typedef logic [2:0] chute_t;  // one of the eight chutes

  // What the tunnel reports for one parcel.
  typedef struct packed {
    logic [5:0]  zone;      // destination zone printed on the label
    logic [15:0] weight_g;  // scale reading, in grams
    logic        no_read;   // the label could not be read
  } parcel_t;

  typedef enum logic [1:0] {IDLE, TRACKING, DIVERT, JAMMED} sort_state_e;

  // Zones 0-41 are the delivery rounds, six per chute. An unreadable label,
  // a parcel over 30 kg or an unknown zone goes to the reject chute.
  function automatic chute_t chute_for(parcel_t p);
    if (p.no_read || p.weight_g > 16'd30000 || p.zone > 6'd41)
      return chute_t'(REJECT);
    return chute_t'(p.zone / 6'd6);
  endfunction
endpackage : sorter_pkg

// Handshake from the scanner tunnel: one parcel per valid/ready beat.
interface scan_if (input logic clk);
  import sorter_pkg::*;

  logic    valid;
  logic    ready;
  parcel_t parcel;

  modport tunnel (output valid, output parcel, input ready);
  modport sorter (input valid, input parcel, output ready);

  // Testbench side: offer one parcel and wait until the sorter takes it.
  task automatic offer(input parcel_t p);
    parcel <= p;
    valid  <= 1'b1;
    @(posedge clk);
    while (!ready) @(posedge clk);
    valid <= 1'b0;
  endtask
endinterface : scan_if

// Photo-eye glitch filter: dust and shrink wrap flicker an eye for a cycle or
// two; the output follows the raw eye once it has read the same for FILTER
// cycles in a row.
module eye_filter (clk, raw, clean);
  parameter FILTER = 4;
  input clk;
  input raw;
  output reg clean;

  reg [3:0] same;

  always @(posedge clk)
    if (raw == clean) same <= 4'd0;
    else if (same == FILTER - 1) begin
      clean <= raw;
      same  <= 4'd0;
    end else same <= same + 4'd1;
endmodule

// One chute decision per parcel; the belt encoder ticks once per 10 mm of travel.
module conveyor_sorter
  import sorter_pkg::*;
#(
  parameter int unsigned JAM_TICKS = 900  // no eye within this many ticks: a jam
) (
  input  logic              clk,
  input  logic              rst_n,
  scan_if.sorter            scan,
  input  logic              encoder_tick,
  input  logic [CHUTES-1:0] eye,          // filtered photo-eyes, one per chute
  output logic [CHUTES-1:0] paddle,       // diverter paddles, one per chute
  output logic              jam_alarm,
  output logic [15:0]       sorted [CHUTES]
);
  sort_state_e state, state_next;
  chute_t      target;
  logic [11:0] ticks;  // encoder ticks since the parcel left the tunnel
  logic        fire;

  // A parcel is taken from the tunnel only while the belt section is free.
  assign scan.ready = (state == IDLE);
  assign fire       = (state == DIVERT);
  assign jam_alarm  = (state == JAMMED);

  // Follow the parcel to its chute's eye, then hold the paddle out until the
  // eye clears. A jam holds until an operator resets the line.
  always_comb begin : next_state
    state_next = state;
    unique case (state)
      IDLE:     if (scan.valid) state_next = TRACKING;
      TRACKING: if (eye[target]) state_next = DIVERT;
                else if (ticks > JAM_TICKS) state_next = JAMMED;
      DIVERT:   if (!eye[target]) state_next = IDLE;
      JAMMED:   state_next = JAMMED;
    endcase
  end

  always_ff @(posedge clk or negedge rst_n) begin : track
    if (!rst_n) begin
      state  <= IDLE;
      target <= '0;
      ticks  <= '0;
    end else begin
      state <= state_next;
      if (state == IDLE && scan.valid) begin
        target <= chute_for(scan.parcel);
        ticks  <= '0;
      end else if (encoder_tick && state == TRACKING) begin
        ticks <= ticks + 12'd1;
      end
    end
  end

  // One paddle driver and one parcel counter per chute.
  for (genvar c = 0; c < CHUTES; c++) begin : chute
    always_ff @(posedge clk or negedge rst_n) begin
      if (!rst_n) begin
        paddle[c] <= 1'b0;
        sorted[c] <= '0;
      end else begin
        paddle[c] <= fire && target == chute_t'(c);
        if (fire && !paddle[c] && target == chute_t'(c))
          sorted[c] <= sorted[c] + 16'd1;
      end
    end
  end : chute

`ifndef SYNTHESIS
  // Two paddles out at once would push a parcel into the wrong chute.
  always @(posedge clk)
    if (rst_n && $countones(paddle) > 1)
      $error("conveyor_sorter: paddles %b out together", paddle);
`endif
endmodule : conveyor_sorter
