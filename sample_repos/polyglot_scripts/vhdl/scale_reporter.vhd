-- Packing station scale of the Lyon warehouse: the load cell's readings are
-- averaged, the tare button is debounced, and each settled weight goes to the
-- station PC as one line of ASCII ("W01250" then CR) over a 115200 baud UART.

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

-- Constants and helpers shared by the scale's RTL and its testbench.
package scale_pkg is
  constant CLK_HZ  : natural := 50_000_000;
  constant BAUD    : natural := 115_200;
  constant SAMPLES : natural := 64;  -- load cell readings per average

  subtype grams_t is unsigned(15 downto 0);
  type digits_t is array (0 to 4) of unsigned(3 downto 0);

  -- Where the sender is in a frame: the "W", the five digits, the CR.
  type frame_state_t is (IDLE, SEND_W, SEND_DIGIT, SEND_CR);

  -- Grams as five decimal digits, the most significant first.
  function to_digits(g : grams_t) return digits_t;

  -- The ASCII code of one decimal digit.
  function ascii_digit(d : unsigned(3 downto 0)) return std_logic_vector;
end package scale_pkg;

package body scale_pkg is
  function to_digits(g : grams_t) return digits_t is
    variable rest   : natural := to_integer(g);
    variable digits : digits_t;
  begin
    for i in 4 downto 0 loop
      digits(i) := to_unsigned(rest mod 10, 4);
      rest      := rest / 10;
    end loop;
    return digits;
  end function to_digits;

  function ascii_digit(d : unsigned(3 downto 0)) return std_logic_vector is
  begin
    return std_logic_vector(resize(d, 8) + 48);
  end function ascii_digit;
end package body scale_pkg;

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.scale_pkg.all;

-- The station's scale front end: load cell in, UART and load bar out.
entity scale_reporter is
  generic (
    DEBOUNCE_MS : natural := 20  -- the tare button must hold a level this long
  );
  port (
    clk       : in  std_logic;
    rst       : in  std_logic;
    adc_valid : in  std_logic;  -- one load cell reading per pulse
    adc_grams : in  grams_t;    -- already scaled to grams
    tare_btn  : in  std_logic;  -- raw, bouncing
    uart_tx   : out std_logic;
    load_bar  : out std_logic_vector(7 downto 0)  -- the panel's LEDs, 2.5 kg each
  );
end entity scale_reporter;

architecture rtl of scale_reporter is
  constant HOLD_TICKS : natural := CLK_HZ / 1000 * DEBOUNCE_MS;

  signal tare_level : std_logic := '0';
  signal tare_now   : std_logic := '0';  -- one cycle when the button goes down
  signal offset     : grams_t   := (others => '0');
  signal reading    : grams_t   := (others => '0');
  signal fresh      : std_logic := '0';  -- a new average is in reading

  signal tx_byte  : std_logic_vector(7 downto 0);
  signal tx_start : std_logic := '0';
  signal tx_busy  : std_logic;

  -- The byte-wide UART transmitter from the shared IP library.
  component uart_byte_tx is
    generic (BIT_TICKS : natural);
    port (
      clk   : in  std_logic;
      start : in  std_logic;
      data  : in  std_logic_vector(7 downto 0);
      busy  : out std_logic;
      tx    : out std_logic
    );
  end component uart_byte_tx;

  -- Readings below the tare offset (the empty tray weighs less) are zero.
  function net(gross, tare : grams_t) return grams_t is
  begin
    if gross < tare then
      return (others => '0');
    end if;
    return gross - tare;
  end function net;
begin
  -- The tare button: follow it once it has held one level for HOLD_TICKS.
  debounce : process (clk)
    variable held : natural range 0 to HOLD_TICKS := 0;
  begin
    if rising_edge(clk) then
      tare_now <= '0';
      if tare_btn = tare_level then
        held := 0;
      elsif held = HOLD_TICKS then
        tare_level <= tare_btn;
        tare_now   <= tare_btn;
        held       := 0;
      else
        held := held + 1;
      end if;
    end if;
  end process debounce;

  -- Average SAMPLES readings; a tare press makes the current average the offset.
  average : process (clk)
    variable sum   : unsigned(21 downto 0) := (others => '0');
    variable count : natural range 0 to SAMPLES := 0;
  begin
    if rising_edge(clk) then
      fresh <= '0';
      if rst = '1' then
        sum   := (others => '0');
        count := 0;
      elsif adc_valid = '1' then
        sum   := sum + adc_grams;
        count := count + 1;
        if count = SAMPLES then
          reading <= net(resize(shift_right(sum, 6), 16), offset);
          fresh   <= '1';
          sum     := (others => '0');
          count   := 0;
        end if;
      end if;
      if tare_now = '1' then
        offset <= reading + offset;
      end if;
    end if;
  end process average;

  -- One frame per fresh reading, a byte at a time while the transmitter is free.
  send_frame : process (clk)
    variable state  : frame_state_t := IDLE;
    variable digits : digits_t;
    variable next_d : natural range 0 to 4 := 0;
  begin
    if rising_edge(clk) then
      tx_start <= '0';
      if rst = '1' then
        state := IDLE;
      elsif tx_busy = '0' and tx_start = '0' then
        case state is
          when IDLE =>
            if fresh = '1' then
              digits := to_digits(reading);
              state  := SEND_W;
            end if;
          when SEND_W =>
            tx_byte  <= x"57";  -- "W"
            tx_start <= '1';
            next_d   := 0;
            state    := SEND_DIGIT;
          when SEND_DIGIT =>
            tx_byte  <= ascii_digit(digits(next_d));
            tx_start <= '1';
            if next_d = 4 then
              state := SEND_CR;
            else
              next_d := next_d + 1;
            end if;
          when SEND_CR =>
            tx_byte  <= x"0D";
            tx_start <= '1';
            state    := IDLE;
        end case;
      end if;
    end if;
  end process send_frame;

  tx_unit : uart_byte_tx
    generic map (BIT_TICKS => CLK_HZ / BAUD)
    port map (clk => clk, start => tx_start, data => tx_byte, busy => tx_busy, tx => uart_tx);

  -- The load bar: one more LED lit per 2.5 kg on the tray.
  bar : for i in load_bar'range generate
    load_bar(i) <= '1' when reading > to_unsigned((i + 1) * 2500, 16) else '0';
  end generate bar;
end architecture rtl;
