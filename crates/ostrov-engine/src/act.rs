//! Acts: the kinds of order a player or the host sends (GAME_FILE.md, "Orders").

use crate::name::vocabulary;

vocabulary! {
    /// The `act` of an order.
    Act, "act" {
        Vote = "vote", "голос", "голосовать";
        Megaphone = "megaphone", "рупор";
        Authority = "authority", "авторитет";
        Sentence = "sentence", "приговор";
        Kill = "kill", "убить", "убийство";
        Check = "check", "проверить", "проверка";
        Heal = "heal", "лечить", "лечение";
        Cancel = "cancel", "отменить", "отмена";
        Swap = "swap", "поменять", "обменять вещи";
        Recharge = "recharge", "перезарядить", "перезарядка";
        Assault = "assault", "навестить", "вздуть";
        Use = "use", "применить", "использовать";
        Bunker = "bunker", "бункер";
        Exchange = "exchange", "обмен";
        Light = "light", "свет";
        Pair = "pair", "пара";
        Ask = "ask", "вопрос";
        Answer = "answer", "ответ";
        Penalty = "penalty", "штраф";
        Remove = "remove", "дисквалификация", "удалить";
        Withdraw = "withdraw", "отозвать", "отзыв";
    }
}

impl Act {
    /// Night orders: the last of these a player sends replaces the earlier ones (R-ORDER-1).
    pub const fn is_night(self) -> bool {
        matches!(self, Act::Kill | Act::Check | Act::Heal | Act::Cancel | Act::Swap | Act::Recharge | Act::Assault)
    }

    /// The kinds of order a `withdraw` may take back while they could still be changed
    /// (O-ORDER-4): those of which one stands and a later one replaces it (R-ORDER-1). An
    /// item use (spent when sent), a `light`, the Spirit's question and the host's acts stand.
    pub const fn is_withdrawable(self) -> bool {
        matches!(
            self,
            Act::Vote | Act::Megaphone | Act::Authority | Act::Sentence | Act::Bunker | Act::Exchange | Act::Pair
        ) || self.is_night()
    }

    /// Acts only the host sends.
    pub const fn is_host(self) -> bool {
        matches!(self, Act::Answer | Act::Penalty | Act::Remove)
    }
}
