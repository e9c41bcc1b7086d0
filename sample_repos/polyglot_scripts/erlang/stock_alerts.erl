%%% @doc Stock alerts for the Lyon warehouse: keeps the shelf levels
%%% reported by the handheld scanners and tells purchasing which skus
%%% fall under their reorder point. Prices are in euro cents.
-module(stock_alerts).
-behaviour(gen_server).

-export([start_link/1, report/3, below_reorder/0, digest/1]).
-export([init/1, handle_call/3, handle_cast/2, handle_info/2]).

-define(CHECK_INTERVAL, timer:minutes(15)).
-define(CENTS(Euros), round((Euros) * 100)).

%% A shelf as the scanners last saw it.
-record(shelf, {
    sku :: binary(),
    on_hand = 0 :: non_neg_integer(),
    reorder_point = 10 :: non_neg_integer(),
    unit_cost = 0 :: non_neg_integer(),
    seen_at :: integer() | undefined
}).

-type sku() :: binary().
-type alert() :: {sku(), On_hand :: non_neg_integer(), Missing :: pos_integer()}.
-opaque state() :: #{shelves := #{sku() => #shelf{}}, notify := fun((iodata()) -> ok)}.

-export_type([state/0]).

%% Sends the digest somewhere people read it (Slack, mail, a printer).
-callback deliver(Digest :: iodata()) -> ok | {error, term()}.

%% @doc Starts the server; `Notify' receives each digest.
-spec start_link(fun((iodata()) -> ok)) -> {ok, pid()}.
start_link(Notify) ->
    gen_server:start_link({local, ?MODULE}, ?MODULE, Notify, []).

%% @doc Records what a scanner counted on a shelf.
-spec report(sku(), non_neg_integer(), non_neg_integer()) -> ok.
report(Sku, OnHand, ReorderPoint) when OnHand >= 0, ReorderPoint >= 0 ->
    gen_server:cast(?MODULE, {report, Sku, OnHand, ReorderPoint});
report(Sku, _OnHand, _ReorderPoint) ->
    logger:warning("négatif ignoré pour ~s", [Sku]),
    ok.

%% @doc The skus under their reorder point, most missing first.
-spec below_reorder() -> [alert()].
below_reorder() ->
    gen_server:call(?MODULE, below_reorder).

%% @private
init(Notify) ->
    erlang:send_after(?CHECK_INTERVAL, self(), check),
    {ok, #{shelves => #{}, notify => Notify}}.

handle_call(below_reorder, _From, State = #{shelves := Shelves}) ->
    {reply, alerts(maps:values(Shelves)), State};
handle_call(_Other, _From, State) ->
    {reply, {error, unknown_call}, State}.

handle_cast({report, Sku, OnHand, ReorderPoint}, State = #{shelves := Shelves}) ->
    Shelf = maps:get(Sku, Shelves, #shelf{sku = Sku}),
    Updated = Shelf#shelf{on_hand = OnHand, reorder_point = ReorderPoint,
                          seen_at = erlang:system_time(second)},
    {noreply, State#{shelves := Shelves#{Sku => Updated}}};
handle_cast(_Other, State) ->
    {noreply, State}.

handle_info(check, State = #{shelves := Shelves, notify := Notify}) ->
    case alerts(maps:values(Shelves)) of
        [] -> ok;
        Alerts -> Notify(digest(Alerts))
    end,
    erlang:send_after(?CHECK_INTERVAL, self(), check),
    {noreply, State};
handle_info(_Other, State) ->
    {noreply, State}.

%% Shelves under their reorder point, most missing first.
-spec alerts([#shelf{}]) -> [alert()].
alerts(Shelves) ->
    Missing = fun(#shelf{on_hand = OnHand, reorder_point = Point}) -> Point - OnHand end,
    Low = [{S#shelf.sku, S#shelf.on_hand, Missing(S)} || S <- Shelves, Missing(S) > 0],
    lists:reverse(lists:keysort(3, Low)).

%% @doc The digest purchasing reads each morning: one line per sku
%% under its reorder point, grouped by aisle (the sku's prefix), with
%% what a refill to twice the reorder point would cost, and the
%% shelves nobody has scanned for a day flagged apart.
-spec digest([alert()]) -> iodata().
digest(Alerts) ->
    Now = erlang:system_time(second),
    Shelves = case whereis(?MODULE) of
        undefined -> #{};
        _Pid -> maps:get(shelves, sys:get_state(?MODULE), #{})
    end,
    Aisle = fun(Sku) ->
        case binary:split(Sku, <<"-">>) of
            [Prefix, _] -> Prefix;
            [_] -> <<"divers">>
        end
    end,
    RefillCost = fun(Sku, Missing) ->
        case maps:find(Sku, Shelves) of
            {ok, #shelf{unit_cost = Cost, reorder_point = Point}} ->
                (Missing + Point) * Cost;
            error ->
                0
        end
    end,
    ByAisle = lists:foldl(
        fun({Sku, OnHand, Missing}, Acc) ->
            maps:update_with(Aisle(Sku),
                             fun(Lines) -> [{Sku, OnHand, Missing} | Lines] end,
                             [{Sku, OnHand, Missing}], Acc)
        end,
        #{}, Alerts),
    Header = io_lib:format("Réassort — entrepôt de Lyon (~b références)~n", [length(Alerts)]),
    Sections = lists:map(
        fun({Name, Lines}) ->
            Title = io_lib:format("~nAllée ~s~n", [Name]),
            Rows = [io_lib:format("  ~-12s ~5b en rayon, ~5b manquants, ~s~n",
                                  [Sku, OnHand, Missing, euros(RefillCost(Sku, Missing))])
                    || {Sku, OnHand, Missing} <- lists:reverse(Lines)],
            [Title | Rows]
        end,
        lists:sort(maps:to_list(ByAisle))),
    Total = lists:sum([RefillCost(Sku, Missing) || {Sku, _, Missing} <- Alerts]),
    Stale = [Sku || #shelf{sku = Sku, seen_at = Seen} <- maps:values(Shelves),
                    Seen =/= undefined, Now - Seen > 86400],
    StaleLines = case Stale of
        [] ->
            [];
        _ ->
            [io_lib:format("~nNon scannés depuis 24 h :~n", []),
             [io_lib:format("  - ~s~n", [Sku]) || Sku <- lists:sort(Stale)]]
    end,
    Footer = io_lib:format("~nCoût estimé du réassort : ~s~n", [euros(Total)]),
    Urgent = length([A || {_, 0, _} = A <- Alerts]),
    UrgentLine = if
        Urgent > 0 -> io_lib:format("Ruptures : ~b~n", [Urgent]);
        true -> []
    end,
    [Header, Sections, StaleLines, Footer, UrgentLine].

%% Cents as euros, the French way: 123456 is "1 234,56 €".
-spec euros(integer()) -> iolist().
euros(Cents) when Cents < 0 ->
    ["-" | euros(-Cents)];
euros(Cents) ->
    Whole = integer_to_list(Cents div 100),
    Grouped = group_thousands(lists:reverse(Whole), []),
    io_lib:format("~s,~2..0b €", [Grouped, Cents rem 100]).

group_thousands([A, B, C, D | Rest], Acc) ->
    group_thousands([D | Rest], [$\s, C, B, A | Acc]);
group_thousands(Digits, Acc) ->
    lists:reverse(Digits) ++ Acc.
