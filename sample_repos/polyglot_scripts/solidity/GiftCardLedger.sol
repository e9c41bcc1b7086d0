// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title Price arithmetic for the storefront's on-chain gift cards.
/// @notice Amounts are euro cents; rates are basis points (1 % = 100).
library CentsMath {
    uint16 internal constant FULL_RATE = 10_000;

    /// @dev The share of `amount` at `rateBps`, rounded half up to the cent.
    function share(uint256 amount, uint16 rateBps) internal pure returns (uint256) {
        return (amount * rateBps + FULL_RATE / 2) / FULL_RATE;
    }

    /// @dev The smaller of two amounts.
    function min(uint256 a, uint256 b) internal pure returns (uint256) {
        return a < b ? a : b;
    }
}

/// @notice What the checkout service needs to know of a ledger.
interface ICardLedger {
    function balanceOf(bytes32 cardId) external view returns (uint256);

    function redeem(bytes32 cardId, uint256 cents, bytes32 orderId) external returns (uint256);
}

/// @title Gift cards and store credit of the shop, redeemed at checkout.
/// @notice Cards are sold at the till (Lyon, Köln) or issued as credit for a return; the
///         checkout service redeems them against an order, oldest card first.
/// @dev Only the operator (the checkout service's key) moves balances.
contract GiftCardLedger is ICardLedger {
    using CentsMath for uint256;

    /// Where a card stands; a frozen card keeps its balance but cannot pay.
    enum Status {
        Active,
        Frozen,
        Spent
    }

    /// One card: its balance, when it lapses and who may spend it.
    struct Card {
        uint256 balance;
        uint64 expiresAt;
        address holder;
        Status status;
    }

    /// One line of a redemption: the card and what it paid.
    struct Payment {
        bytes32 cardId;
        uint256 cents;
    }

    address public operator;
    uint16 public bonusBps = 500; // 5 % extra on cards bought for 100 € or more
    mapping(bytes32 => Card) private cards;
    mapping(bytes32 => bool) public settledOrders;

    event Issued(bytes32 indexed cardId, address indexed holder, uint256 cents);
    event Redeemed(bytes32 indexed orderId, bytes32 indexed cardId, uint256 cents);
    event Frozen(bytes32 indexed cardId, string reason);

    error NotOperator(address caller);
    error UnknownCard(bytes32 cardId);
    error AlreadySettled(bytes32 orderId);

    /// @dev Every balance change goes through the checkout service.
    modifier onlyOperator() {
        if (msg.sender != operator) revert NotOperator(msg.sender);
        _;
    }

    constructor(address checkoutService) {
        operator = checkoutService;
    }

    /// @notice Sells a card worth `cents`, plus the bonus on large cards.
    /// @return credited What the card holds, bonus included.
    function issue(bytes32 cardId, address holder, uint256 cents, uint64 validDays)
        external
        onlyOperator
        returns (uint256 credited) {
        credited = cents;
        if (cents >= 10_000) {
            credited += cents.share(bonusBps);
        }
        cards[cardId] = Card(credited, uint64(block.timestamp) + validDays * 1 days, holder, Status.Active);
        emit Issued(cardId, holder, credited);
    }

    /// @notice What a card can still pay, zero once it lapsed or was frozen.
    function balanceOf(bytes32 cardId) public view returns (uint256) {
        Card storage card = cards[cardId];
        if (card.status != Status.Active || card.expiresAt < block.timestamp) {
            return 0;
        }
        return card.balance;
    }

    /// @notice Freezes a card reported stolen; its balance is kept for a refund.
    function freeze(bytes32 cardId, string calldata reason) external onlyOperator {
        Card storage card = cards[cardId];
        if (card.holder == address(0)) revert UnknownCard(cardId);
        card.status = Status.Frozen;
        emit Frozen(cardId, reason);
    }

    /// @notice Redeems one card against an order (the single-card checkout).
    function redeem(bytes32 cardId, uint256 cents, bytes32 orderId) external onlyOperator returns (uint256) {
        bytes32[] memory single = new bytes32[](1);
        single[0] = cardId;
        (uint256 paid, ) = settleOrder(orderId, single, cents, 0);
        return paid;
    }

    /// @notice Pays an order from several cards, oldest first, and reports what is left to pay.
    /// @dev Cards that lapsed, were frozen or belong to someone else are skipped, not reverted
    ///      on: the customer pays the rest by card. A restocking fee (basis points of the
    ///      order) is taken from the first card that can pay it, never split across cards.
    /// @return paid What the cards paid in total.
    /// @return remaining What the customer still owes.
    function settleOrder(bytes32 orderId, bytes32[] memory cardIds, uint256 totalCents, uint16 feeBps)
        public
        onlyOperator
        returns (uint256 paid, uint256 remaining) {
        if (settledOrders[orderId]) revert AlreadySettled(orderId);
        settledOrders[orderId] = true;

        uint256 fee = totalCents.share(feeBps);
        bool feeTaken = fee == 0;
        remaining = totalCents;
        Payment[] memory payments = new Payment[](cardIds.length);
        uint256 count = 0;

        // Oldest card first: the one that lapses soonest is spent before the others.
        for (uint256 i = 0; i < cardIds.length; i++) {
            for (uint256 j = i + 1; j < cardIds.length; j++) {
                if (cards[cardIds[j]].expiresAt < cards[cardIds[i]].expiresAt) {
                    (cardIds[i], cardIds[j]) = (cardIds[j], cardIds[i]);
                }
            }
        }

        for (uint256 i = 0; i < cardIds.length && (remaining > 0 || !feeTaken); i++) {
            bytes32 cardId = cardIds[i];
            Card storage card = cards[cardId];
            uint256 available = balanceOf(cardId);
            if (available == 0) {
                continue;
            }
            if (card.holder != tx.origin && card.holder != address(0)) {
                continue; // someone else's card: the till asks for the holder's consent
            }

            if (!feeTaken && available >= fee) {
                card.balance -= fee;
                available -= fee;
                feeTaken = true;
            }

            uint256 take = available.min(remaining);
            if (take == 0) {
                continue;
            }
            card.balance -= take;
            remaining -= take;
            paid += take;
            payments[count] = Payment(cardId, take);
            count++;

            if (card.balance == 0) {
                card.status = Status.Spent;
            }
        }

        if (!feeTaken) {
            remaining += fee; // no card could pay the fee: it is added to the customer's share
        }
        for (uint256 k = 0; k < count; k++) {
            emit Redeemed(orderId, payments[k].cardId, payments[k].cents);
        }
    }

    /// @notice Hands the ledger to a new checkout service key (after a key rotation).
    function transferOperator(address next) external onlyOperator {
        operator = next;
    }

    /// Plain transfers are refused: cards are only sold at the till.
    receive() external payable {
        revert(unicode"Gift cards are sold at the till — not by transfer");
    }
}
