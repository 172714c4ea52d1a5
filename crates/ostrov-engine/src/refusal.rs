//! Why an order does not count (the report's `rejected[].reason`).

/// The reason an order was refused when sent, or did not count at the resolution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Refusal {
    /// Sent after the 21:00 deadline.
    Late,
    /// The sender is not alive.
    SenderDead,
    /// A player the order names is not alive.
    TargetDead,
    /// The sender's role has no such ability.
    NotYourAbility,
    /// A once-per-game ability already used (R-ONCE-1).
    AbilityUsed,
    /// The nurse already healed herself once.
    SelfHealUsed,
    /// The act belongs to another event.
    WrongEvent,
    /// An event action sent after 13:00 (R-EVENT-1).
    AfterMidday,
    /// Two votes on a one-vote day.
    WrongVoteCount,
    /// A pack order with two targets when it is not Full moon (step 12).
    TwoTargets,
    /// The sender holds no item that can do this.
    NoItem,
    /// The order names another item than the sender holds.
    WrongItem,
    /// The item is spent.
    ItemSpent,
    /// No item works on a Magnetic storm day (R-ITEM-7).
    MagneticStorm,
    /// Only the chosen player may pair.
    NotChosen,
    /// The order names the sender where another player is needed.
    SelfTarget,
    /// The day's question to the Spirit was already asked (R-SPIRIT-1).
    AlreadyAsked,
    /// The host answers only a question that was asked.
    NoQuestion,
    /// Only the host sends this.
    HostOnly,
    /// The host does not vote or act as a player.
    NotForHost,
    /// `light` needs a spent activated item.
    NothingToRecharge,
    /// The reserve is empty (R-BUNKER-1).
    ReserveEmpty,
    /// The bunker's fixed item is not in the reserve.
    NotInReserve,
    /// The game is over.
    GameOver,
    /// A `withdraw` of a kind of order the sender has none of in force (O-ORDER-4).
    NothingToWithdraw,
    /// A `withdraw` of a kind of order that stands once sent (O-ORDER-4).
    NotWithdrawable,
}

impl Refusal {
    /// The reason's id in the JSON report.
    pub const fn code(self) -> &'static str {
        match self {
            Refusal::Late => "late",
            Refusal::SenderDead => "sender_dead",
            Refusal::TargetDead => "target_dead",
            Refusal::NotYourAbility => "not_your_ability",
            Refusal::AbilityUsed => "ability_used",
            Refusal::SelfHealUsed => "self_heal_used",
            Refusal::WrongEvent => "wrong_event",
            Refusal::AfterMidday => "after_13",
            Refusal::WrongVoteCount => "wrong_vote_count",
            Refusal::TwoTargets => "two_targets",
            Refusal::NoItem => "no_item",
            Refusal::WrongItem => "wrong_item",
            Refusal::ItemSpent => "item_spent",
            Refusal::MagneticStorm => "magnetic_storm",
            Refusal::NotChosen => "not_chosen",
            Refusal::SelfTarget => "self_target",
            Refusal::AlreadyAsked => "already_asked",
            Refusal::NoQuestion => "no_question",
            Refusal::HostOnly => "host_only",
            Refusal::NotForHost => "not_for_host",
            Refusal::NothingToRecharge => "nothing_to_recharge",
            Refusal::ReserveEmpty => "reserve_empty",
            Refusal::NotInReserve => "not_in_reserve",
            Refusal::GameOver => "game_over",
            Refusal::NothingToWithdraw => "nothing_to_withdraw",
            Refusal::NotWithdrawable => "not_withdrawable",
        }
    }

    /// The reason in Russian, for players and hosts.
    pub const fn ru(self) -> &'static str {
        match self {
            Refusal::Late => "ход прислан после 21:00 и не учитывается",
            Refusal::SenderDead => "игрок выбыл из игры и не может ходить",
            Refusal::TargetDead => "выбранный игрок уже выбыл из игры",
            Refusal::NotYourAbility => "у вашей роли нет такой способности",
            Refusal::AbilityUsed => "эта способность уже использована (она действует один раз за игру)",
            Refusal::SelfHealUsed => "медсестра уже лечила себя в этой игре",
            Refusal::WrongEvent => "это действие возможно только при другом событии",
            Refusal::AfterMidday => "действия по событию принимаются только до 13:00",
            Refusal::WrongVoteCount => "сегодня у каждого игрока один голос",
            Refusal::TwoTargets => "две жертвы оборотни могут выбрать только в Полнолуние",
            Refusal::NoItem => "у вас нет вещи, которая может это сделать",
            Refusal::WrongItem => "у вас другая вещь",
            Refusal::ItemSpent => "вещь уже использована и ждёт перезарядки",
            Refusal::MagneticStorm => "в Магнитную бурю вещи не работают",
            Refusal::NotChosen => "выбрать пару может только избранный игрок",
            Refusal::SelfTarget => "нужно выбрать другого игрока",
            Refusal::AlreadyAsked => "вопрос Духу сегодня уже задан",
            Refusal::NoQuestion => "сегодня Духу не задали вопроса",
            Refusal::HostOnly => "это может сделать только ведущий",
            Refusal::NotForHost => "ведущий не голосует и не ходит за игроков",
            Refusal::NothingToRecharge => "у вас нет использованной вещи",
            Refusal::ReserveEmpty => "в резерве не осталось вещей",
            Refusal::NotInReserve => "такой вещи нет в резерве",
            Refusal::GameOver => "игра окончена",
            Refusal::NothingToWithdraw => "у вас нет такого приказа в силе, отзывать нечего",
            Refusal::NotWithdrawable => "применение вещи, свет и вопрос Духу не отзываются",
        }
    }
}

impl Refusal {
    /// The reason in English (`--lang en`).
    pub const fn en(self) -> &'static str {
        match self {
            Refusal::Late => "sent after the 21:00 deadline: it does not count",
            Refusal::SenderDead => "the sender is out of the game",
            Refusal::TargetDead => "the player named is out of the game",
            Refusal::NotYourAbility => "the sender's role has no such ability",
            Refusal::AbilityUsed => "the once-per-game ability is used up",
            Refusal::SelfHealUsed => "the nurse has already healed herself once",
            Refusal::WrongEvent => "this act belongs to another event",
            Refusal::AfterMidday => "event acts are taken only until 13:00",
            Refusal::WrongVoteCount => "today every player has one vote",
            Refusal::TwoTargets => "the pack names two victims only on Full moon",
            Refusal::NoItem => "the sender holds no item that can do this",
            Refusal::WrongItem => "the sender holds another item",
            Refusal::ItemSpent => "the item is spent",
            Refusal::MagneticStorm => "no item works on a Magnetic storm",
            Refusal::NotChosen => "only the chosen player may pair",
            Refusal::SelfTarget => "another player must be named",
            Refusal::AlreadyAsked => "today's question to the Spirit was already asked",
            Refusal::NoQuestion => "nobody asked the Spirit a question today",
            Refusal::HostOnly => "only the host may do this",
            Refusal::NotForHost => "the host does not vote or act for players",
            Refusal::NothingToRecharge => "the sender holds no spent item",
            Refusal::ReserveEmpty => "the reserve is empty",
            Refusal::NotInReserve => "that item is not in the reserve",
            Refusal::GameOver => "the game is over",
            Refusal::NothingToWithdraw => "the sender has no order of that kind in force to withdraw",
            Refusal::NotWithdrawable => "that order cannot be withdrawn: an item use, a light and a question stand",
        }
    }

    /// The reason in `lang`.
    pub const fn text(self, lang: crate::Lang) -> &'static str {
        match lang {
            crate::Lang::Ru => self.ru(),
            crate::Lang::English => self.en(),
        }
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}
