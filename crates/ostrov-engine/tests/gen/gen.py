#!/usr/bin/env python3
"""Writes the hand-worked scenarios into ../scenarios (NAME.toml + NAME.expect.json).
Every expectation below was worked out by hand from RULES.md."""
import json, os
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scenarios")
N = dict(А="Аня", Б="Боря", В="Вика", Г="Гена", Д="Дима", Е="Егор", Ж="Жора", З="Зоя")
def q(s): return json.dumps(s, ensure_ascii=False)
def nm(x): return N.get(x, x)
def val(v):
    if isinstance(v, list): return "[" + ", ".join(val(x) for x in v) + "]"
    if isinstance(v, bool): return "true" if v else "false"
    if isinstance(v, int): return str(v)
    if isinstance(v, dict): return "{ " + ", ".join(f"{q(k)} = {val(x)}" for k, x in v.items()) + " }"
    return q(v)
def o(by, act, t=None, **kw):
    d = {"by": nm(by), "act": act}
    if t is not None:
        if isinstance(t, list): d["targets"] = [nm(x) for x in t]
        else: d["target"] = nm(t)
    for k, v in kw.items():
        d[k] = nm(v) if k == "from_" or k == "from" else v
    if "from_" in d: d["from"] = d.pop("from_")
    return d
def V(by, t, **kw): return o(by, "vote", t, **kw)
def fix(x):
    if isinstance(x, str): return nm(x)
    if isinstance(x, list): return [fix(y) for y in x]
    if isinstance(x, dict): return {nm(k) if k in N else k: (fix(v) if k not in ("act","reason","result","item","event","death","role","side") else v) for k, v in x.items()}
    return x
def S(name, comment, players, days, exp, rules=None, top=None):
    lines = [f"# {comment}", f"title = {q(name)}", "seed = 1"]
    for k, v in (top or {}).items(): lines.append(f"{k} = {val(v)}")
    if rules:
        lines.append("\n[rules]")
        for k, v in rules.items(): lines.append(f"{k} = {val(v)}")
    for p in players.split():
        n, r, *it = p.split(":")
        lines += ["", "[[players]]", f"name = {q(nm(n))}", f"role = {q(r)}", ] + ([] if it and it[0] == "-" else [f"item = {q(it[0] if it else 'none')}"])
    for d in days:
        lines += ["", "[[days]]"] + ([] if d.get('event', 'none') is None else [f"event = {q(d.get('event', 'none'))}"])
        for k in ("chosen", "tie_break", "deal"):
            if k in d:
                x = d[k]
                if k == "deal": x = {nm(a): b for a, b in x.items()}
                else: x = fix(x)
                lines.append(f"{k} = {val(x)}")
        lines.append("orders = [")
        for od in d.get("orders", []):
            lines.append("  { " + ", ".join(f"{k} = {val(v)}" for k, v in od.items()) + " },")
        lines.append("]")
    open(os.path.join(OUT, name + ".toml"), "w").write("\n".join(lines) + "\n")
    e = fix(exp)
    if "days" in e:
        for i, d in enumerate(e["days"]):
            if "tally" in d: d["tally"] = {nm(k): v for k, v in d["tally"].items()}
    json.dump(e, open(os.path.join(OUT, name + ".expect.json"), "w"), ensure_ascii=False, indent=1)

P6 = "А:seer Б:werewolf В:passenger Г:passenger Д:passenger Е:passenger"
ALL_E = [V(x, "Е") for x in "АБВГД"] + [V("Е", "А")]   # Егор lynched 5:1

# ---- votes and ties
S("r_vote_1_missing_vote_on_self", "R-VOTE-1: a vote not cast counts on its owner.",
  "А:seer Б:werewolf В:passenger Г:passenger Д:passenger",
  [dict(orders=[V("А","Б"), V("В","Б")])],
  dict(winner="civilians", days=[dict(day=1, tally={"Б":3,"Г":1,"Д":1}, lynched=["Б"], night_deaths=[])]))
S("r_order_1_last_vote_counts", "R-ORDER-1: of a player's votes the last one sent counts.",
  "А:seer Б:werewolf В:passenger Г:passenger Д:passenger",
  [dict(orders=[V("А","Г",at="10:00"), V("А","Б",at="11:00"), V("В","Б"), V("Г","Б"), V("Д","А"), V("Б","А")])],
  dict(winner="civilians", days=[dict(day=1, tally={"Б":3,"А":2}, lynched=["Б"])]))
TIE = [V("А","Б"), V("В","Б"), V("Б","А"), V("Г","А"), o("Б","kill","В")]
S("r_tie_1_random_tie_break", "R-TIE-1: a tie under tie = random is settled by the fixed tie_break.",
  "А:passenger Б:werewolf В:passenger Г:passenger Д:passenger",
  [dict(tie_break="А", orders=TIE)],
  dict(winner=None, days=[dict(day=1, tally={"Б":2,"А":2,"Д":1}, lynched=["А"], night_deaths=["В"])]))
S("r_tie_1_none_nobody", "R-TIE-1: tie = none lynches nobody on a tie.",
  "А:passenger Б:werewolf В:passenger Г:passenger Д:passenger",
  [dict(orders=TIE)], dict(winner=None, days=[dict(day=1, lynched=[], night_deaths=["В"])]), rules=dict(tie="none"))
S("r_tie_1_all_everyone", "R-TIE-1: tie = all lynches every tied candidate.",
  "А:passenger Б:werewolf В:passenger Г:passenger Д:passenger",
  [dict(orders=TIE)], dict(winner="civilians", days=[dict(day=1, lynched=["А","Б"], night_deaths=[])]), rules=dict(tie="all"))
S("r_tie_1_trap_holder_lynched", "R-TIE-1: in a tie between a trap holder and a non-holder the holder is lynched.",
  "А:passenger:trap Б:werewolf В:passenger Г:passenger Д:passenger",
  [dict(tie_break="Б", orders=TIE)], dict(winner=None, days=[dict(day=1, lynched=["А"], night_deaths=["В"])]))
S("r_tie_1_trap_both_random", "R-TIE-1: when every tied candidate holds a trap, the trap does not decide; the tie break does.",
  "А:passenger:trap Б:werewolf:trap В:passenger Г:passenger Д:passenger",
  [dict(tie_break="Б", orders=TIE)], dict(winner="civilians", days=[dict(day=1, lynched=["Б"])]))
S("r_tie_1_fang_saves", "R-TIE-1: a fang holder leaves a tie; the other tied candidate is lynched.",
  "А:passenger Б:werewolf:fang В:passenger Г:passenger Д:passenger",
  [dict(tie_break="Б", orders=TIE)], dict(winner=None, days=[dict(day=1, lynched=["А"], night_deaths=["В"])]))
S("r_tie_1_fang_all_nobody", "R-TIE-1: if every tied candidate holds a fang, nobody is lynched.",
  "А:passenger:fang Б:werewolf:fang В:passenger Г:passenger Д:passenger",
  [dict(tie_break="Б", orders=TIE)], dict(winner=None, days=[dict(day=1, lynched=[], night_deaths=["В"])]))
S("fang_no_effect_without_tie", "R-TIE-1: the fang saves only from a lynch decided by a tie.",
  "А:seer Б:werewolf:fang В:passenger Г:passenger Д:passenger",
  [dict(orders=[V("А","Б"), V("В","Б"), V("Г","Б"), V("Б","А"), V("Д","А")])],
  dict(winner="civilians", days=[dict(day=1, tally={"Б":3,"А":2}, lynched=["Б"])]))
# ---- sheep skin
S("r_skin_1_runner_up_tie", "R-SKIN-1: sheep skin saves the leader; a tied runner-up is picked by the tie break.",
  "А:passenger Б:werewolf:sheep_skin В:passenger Г:passenger Д:passenger",
  [dict(tie_break="Д", orders=[V("А","Б"), V("В","Б"), V("Г","Б"), V("Б","А"), o("Б","kill","В")])],
  dict(winner=None, players=[dict(name="Б", alive=True, item="sheep_skin", item_charged=False), dict(name="Д", alive=False, death="lynch", died_on_day=1)],
       days=[dict(day=1, tally={"Б":3,"А":1,"Д":1}, lynched=["Д"], night_deaths=["В"], items_used=[dict(by="Б", item="sheep_skin")])]))
# ---- bomb
S("r_bomb_1_one_vote_no_fire", "R-BOMB-1: a bomb holder with only one vote does not fire.",
  "А:seer Б:werewolf В:passenger Г:passenger:bomb Д:passenger",
  [dict(orders=[V("А","Б"), V("В","Б"), V("Д","Б"), V("Б","А")])],
  dict(winner="civilians", days=[dict(day=1, tally={"Б":3,"А":1,"Г":1}, lynched=["Б"])]))
S("r_bomb_1_leader_is_bomb_other_fires", "R-BOMB-1: the leader holds a bomb (already chosen); another bomb holder with two votes fires and is lynched instead.",
  "А:passenger:bomb Б:werewolf В:passenger:bomb Г:passenger Д:passenger Е:passenger",
  [dict(orders=[V("Г","В"), V("Д","В"), V("Е","В"), V("Б","А"), V("В","А"), V("А","Б"), o("Б","kill","Г")])],
  dict(winner=None, days=[dict(day=1, tally={"В":3,"А":2,"Б":1}, lynched=["А"], night_deaths=["Г"])]))
# ---- rage
S("r_rage_1_two_lynched", "R-RAGE-1: on Rage each player has two votes and the top two are lynched.",
  "А:passenger Б:werewolf В:passenger Г:passenger Д:passenger",
  [dict(event="rage", orders=[V("А",["Б","Г"]), V("В",["Б","А"]), V("Г",["Б","А"]), V("Д",["Б","А"]), V("Б",["А","В"])])],
  dict(winner="civilians", days=[dict(day=1, event="rage", tally={"Б":4,"А":4,"Г":1,"В":1}, lynched=["А","Б"])]))
S("r_bomb_1_rage_bomb_replaces_first", "R-BOMB-1 + R-RAGE-1: on Rage a firing bomb holder replaces the first chosen place.",
  "А:passenger Б:werewolf В:passenger Г:passenger:bomb Д:passenger Е:passenger",
  [dict(event="rage", orders=[V("А",["Б","Г"]), V("В",["Б","Г"]), V("Г",["Б","А"]), V("Д",["Б","А"]), V("Е",["Б","А"]), V("Б",["А","В"]), o("Б","kill","В")])],
  dict(winner=None, days=[dict(day=1, tally={"Б":5,"А":4,"Г":2,"В":1}, lynched=["А","Г"], night_deaths=["В"])]))
S("r_vote_1_rage_missing_two_self", "R-VOTE-1: on Rage both missing votes count on their owner.",
  "А:passenger Б:werewolf В:passenger Г:passenger Д:passenger Е:passenger",
  [dict(event="rage", orders=[V("А",["Б","В"]), V("В",["Б","А"]), V("Г",["Б","А"]), V("Д",["Б","А"]), V("Б",["А","В"])])],
  dict(days=[dict(day=1, tally={"Б":4,"А":4,"В":2,"Е":2}, lynched=["А","Б"])], winner="civilians"))
S("refusal_wrong_vote_count", "R-ORDER-1: two votes on a one-vote day are refused (the vote then counts on the sender).",
  "А:seer Б:werewolf В:passenger Г:passenger Д:passenger",
  [dict(orders=[V("А",["Б","В"]), V("В","Б"), V("Г","Б"), V("Д","Б")])],
  dict(winner="civilians", days=[dict(day=1, tally={"Б":4,"А":1}, lynched=["Б"], rejected=[dict(by="А", act="vote", reason="wrong_vote_count")])]))
# ---- choose me
S("r_immune_1_leader_immune_no_lynch", "R-IMMUNE-1: an immune leader is not lynched and nobody is lynched instead.",
  "А:passenger Б:werewolf В:passenger Г:passenger Д:passenger",
  [dict(event="choose_me", chosen="Б", orders=[V("А","Б"), V("В","Б"), V("Г","Б"), V("Б","А"), V("Д","А"), o("Б","kill","В")])],
  dict(winner=None, days=[dict(day=1, event="choose_me", tally={"Б":3,"А":2}, lynched=[], night_deaths=["В"])]))
S("choose_me_pair_immune", "R-IMMUNE-1: the chosen player's pair is immune too.",
  "А:passenger Б:werewolf В:passenger Г:passenger Д:passenger",
  [dict(event="choose_me", chosen="А", orders=[o("А","pair","Г",at="11:00"), V("А","Г"), V("В","Г"), V("Б","Г"), V("Д","Г"), V("Г","Б"), o("Б","kill","В")])],
  dict(winner=None, days=[dict(day=1, tally={"Г":4,"Б":1}, lynched=[], night_deaths=["В"])]))
S("r_event_1_pair_after_13_refused", "R-EVENT-1: a pair order sent after 13:00 is refused.",
  "А:passenger Б:werewolf В:passenger Г:passenger Д:passenger",
  [dict(event="choose_me", chosen="А", orders=[o("А","pair","Г",at="14:00"), V("А","Г"), V("В","Г"), V("Б","Г"), V("Д","Г"), V("Г","Б")])],
  dict(days=[dict(day=1, tally={"Г":4,"Б":1}, lynched=["Г"], rejected=[dict(by="А", act="pair", reason="after_13")])]))
S("refusal_pair_not_chosen", "R-ORDER-1: only the chosen player may pair.",
  "А:passenger Б:werewolf В:passenger Г:passenger Д:passenger",
  [dict(event="choose_me", chosen="А", orders=[o("В","pair","Г",at="11:00"), V("А","Г"), V("В","Г"), V("Б","Г"), V("Д","Г"), V("Г","Б")])],
  dict(days=[dict(day=1, lynched=["Г"], rejected=[dict(by="В", act="pair", reason="not_chosen")])]))
# ---- fear
S("r_fear_1_leader_sentences", "R-FEAR-1 + R-VOTE-3: on Fear missing votes do not exist; the leader's sentence is executed.",
  "А:seer Б:werewolf В:passenger Г:passenger Д:passenger",
  [dict(event="fear", orders=[V("А","А"), V("В","А"), V("Г","А"), o("А","sentence","Б"), o("Б","sentence","В")])],
  dict(winner="civilians", days=[dict(day=1, event="fear", tally={"А":3}, lynched=["Б"])]))
S("r_fear_1_authority_works", "R-FEAR-1: on Fear the authority still moves a vote.",
  "А:passenger Б:werewolf В:passenger Г:authority Д:passenger",
  [dict(event="fear", orders=[V("А","А"), V("В","Б"), V("Д","А"), V("Б","Б"), V("Г","Б"), o("Г","authority","Б", from_="Д"), o("Б","sentence","А"), o("Б","kill","В")])],
  dict(winner=None, days=[dict(day=1, tally={"А":1,"Б":4}, lynched=["А"], night_deaths=["В"])]))
S("r_fear_1_no_sentence_no_lynch", "R-FEAR-1: a leader without a sentence means no lynch.",
  "А:passenger Б:werewolf В:passenger Г:passenger Д:passenger",
  [dict(event="fear", orders=[V("А","А"), V("В","А"), V("Г","А"), o("В","sentence","Б"), o("Б","kill","В")])],
  dict(winner=None, days=[dict(day=1, tally={"А":3}, lynched=[], night_deaths=["В"])]))
S("r_fear_1_sheep_skin_nobody_dies", "R-FEAR-1: a sentenced sheep-skin holder survives and nobody dies.",
  "А:passenger Б:werewolf:sheep_skin В:passenger Г:passenger Д:passenger",
  [dict(event="fear", orders=[V("А","А"), V("В","А"), V("Г","А"), o("А","sentence","Б"), o("Б","kill","В")])],
  dict(winner=None, players=[dict(name="Б", alive=True, item_charged=False)], days=[dict(day=1, lynched=[], night_deaths=["В"], items_used=[dict(by="Б", item="sheep_skin")])]))
S("r_fear_1_bomb_does_nothing", "R-FEAR-1: on Fear a bomb does not fire.",
  "А:passenger Б:werewolf В:passenger:bomb Г:passenger Д:passenger",
  [dict(event="fear", orders=[V("А","А"), V("В","А"), V("Г","В"), V("Д","В"), V("Б","А"), o("А","sentence","Б")])],
  dict(winner="civilians", days=[dict(day=1, tally={"А":3,"В":2}, lynched=["Б"])]))
S("r_fear_1_tie_random_leader", "R-FEAR-1: a tied election under tie = random is settled by tie_break.",
  "А:passenger Б:werewolf В:passenger Г:passenger Д:passenger",
  [dict(event="fear", tie_break="Б", orders=[V("А","А"), V("В","А"), V("Б","Б"), V("Г","Б"), o("А","sentence","Б"), o("Б","sentence","В"), o("Б","kill","Г")])],
  dict(winner=None, days=[dict(day=1, tally={"А":2,"Б":2}, lynched=["В"], night_deaths=["Г"])]))
S("r_fear_1_tie_none_no_leader", "R-FEAR-1: a tied election under tie = none gives no leader and no lynch.",
  "А:passenger Б:werewolf В:passenger Г:passenger Д:passenger",
  [dict(event="fear", orders=[V("А","А"), V("В","А"), V("Б","Б"), V("Г","Б"), o("А","sentence","Б"), o("Б","sentence","В"), o("Б","kill","Г")])],
  dict(winner=None, days=[dict(day=1, lynched=[], night_deaths=["Г"])]), rules=dict(tie="none"))
# ---- night: werewolves, untouchable, fern, eclipses
S("wolf_kill_basic", "R-WOLF-1: the pack kills its target at night.",
  P6, [dict(orders=ALL_E + [o("Б","kill","В")])],
  dict(winner=None, players=[dict(name="В", alive=False, death="night", died_on_day=1)], days=[dict(day=1, tally={"Е":5,"А":1}, lynched=["Е"], night_deaths=["В"])]))
S("r_wolf_1_last_order_of_living_wolf", "R-WOLF-1: the pack's order is the last kill sent by a werewolf alive after the lynch.",
  "А:seer Б:werewolf В:passenger Г:passenger Д:passenger Е:werewolf Ж:passenger",
  [dict(orders=[V(x, "Е") for x in "АВГДЖ"] + [V("Б","А"), V("Е","А"), o("Б","kill","В",at="10:00"), o("Е","kill","Г",at="11:00")])],
  dict(winner=None, days=[dict(day=1, tally={"Е":5,"А":2}, lynched=["Е"], night_deaths=["В"])]))
S("r_wolf_1_later_order_wins", "R-WOLF-1: of two living werewolves' kills the last one sent is the pack's.",
  "А:seer Б:werewolf В:passenger Г:passenger Д:passenger Е:werewolf Ж:passenger",
  [dict(orders=[V(x, "Ж") for x in "АБВГДЕ"] + [V("Ж","А"), o("Б","kill","В",at="10:00"), o("Е","kill","Г",at="11:00")])],
  dict(winner=None, days=[dict(day=1, lynched=["Ж"], night_deaths=["Г"])]))
S("untouchable_survives_wolves", "Step 13: the untouchable survives the werewolves' attack.",
  "А:seer Б:werewolf В:untouchable Г:passenger Д:passenger Е:passenger",
  [dict(orders=ALL_E + [o("Б","kill","В")])], dict(winner=None, days=[dict(day=1, night_deaths=[])], players=[dict(name="В", alive=True)]))
S("r_item_1_moon_fern_spent", "R-ITEM-1: the moon fern saves its holder from the werewolves and is spent.",
  "А:seer Б:werewolf В:passenger:moon_fern Г:passenger Д:passenger Е:passenger",
  [dict(orders=ALL_E + [o("Б","kill","В")])],
  dict(winner=None, players=[dict(name="В", alive=True, item="moon_fern", item_charged=False)], days=[dict(day=1, night_deaths=[], items_used=[dict(by="В", item="moon_fern")])]))
S("r_item_1_fern_spent_even_if_healed", "R-ITEM-1: a moon fern on a player the nurse heals later is still spent.",
  "А:nurse Б:werewolf В:passenger:moon_fern Г:passenger Д:passenger Е:passenger",
  [dict(orders=ALL_E + [o("Б","kill","В"), o("А","heal","В")])],
  dict(winner=None, players=[dict(name="В", alive=True, item_charged=False)], days=[dict(day=1, night_deaths=[])]))
S("r_item_1_fern_on_untouchable_stays", "R-ITEM-1: a moon fern on an untouchable stays charged.",
  "А:seer Б:werewolf В:untouchable:moon_fern Г:passenger Д:passenger Е:passenger",
  [dict(orders=ALL_E + [o("Б","kill","В")])],
  dict(winner=None, players=[dict(name="В", alive=True, item_charged=True)], days=[dict(day=1, night_deaths=[])]))
S("event_lunar_eclipse_no_kill", "Step 12: on Lunar eclipse the werewolves kill nobody.",
  P6, [dict(event="lunar_eclipse", orders=ALL_E + [o("Б","kill","В")])], dict(winner=None, days=[dict(day=1, event="lunar_eclipse", lynched=["Е"], night_deaths=[])]))
S("event_full_moon_two_kills", "Step 12: on Full moon the pack kills two.",
  P6, [dict(event="full_moon", orders=ALL_E + [o("Б","kill",["В","Г"])])], dict(winner=None, days=[dict(day=1, lynched=["Е"], night_deaths=["В","Г"])]))
S("refusal_two_targets_not_full_moon", "Step 12: a pack order with two targets on an ordinary night is refused when sent.",
  P6, [dict(orders=ALL_E + [o("Б","kill",["В","Г"])])],
  dict(winner=None, days=[dict(day=1, night_deaths=[], rejected=[dict(by="Б", act="kill", reason="two_targets")])]))
# ---- seer, glasses, halfblood, hamster
S("seer_checks", "Step 15: the seer sees werewolf / not a werewolf.",
  "А:seer Б:werewolf В:seer Г:passenger Д:passenger Е:passenger",
  [dict(orders=ALL_E + [o("А","check","Б"), o("В","check","Г")])],
  dict(days=[dict(day=1, checks=[dict(seer="А", target="Б", result="werewolf"), dict(seer="В", target="Г", result="not_werewolf")])]))
S("black_glasses_check_fails", "Step 16: black glasses make the check fail.",
  "А:seer Б:werewolf:black_glasses В:passenger Г:passenger Д:passenger Е:passenger",
  [dict(orders=ALL_E + [o("А","check","Б")])], dict(days=[dict(day=1, checks=[dict(seer="А", target="Б", result="failed")])]))
S("r_half_1_unturned_not_werewolf", "Step 16 + R-HALF-1: an unturned halfblood is seen as not a werewolf, and cannot kill.",
  "А:seer Б:werewolf В:halfblood Г:passenger Д:passenger Е:passenger Ж:passenger",
  [dict(orders=[V(x,"Ж") for x in "АБВГДЕ"] + [V("Ж","А"), o("А","check","В"), o("В","kill","Г"), o("Б","kill","Д")])],
  dict(winner=None, days=[dict(day=1, lynched=["Ж"], night_deaths=["Д"], checks=[dict(seer="А", target="В", result="not_werewolf")])]))
S("r_half_1_turns_at_night", "R-HALF-1: the last werewolf dies at night (witch); the halfblood's kill that night does not count, and it turns for the next.",
  "А:seer Б:werewolf В:witch Г:halfblood Д:passenger Е:passenger Ж:passenger",
  [dict(orders=[V(x,"Ж") for x in "АБВГДЕ"] + [V("Ж","А"), o("В","kill","Б"), o("Б","kill","Д"), o("Г","kill","Е")]),
   dict(orders=[V("А","Е"), V("В","Е"), V("Е","А"), V("Г","А"), o("Г","kill","В"), o("А","check","Г")])],
  dict(winner=None, days=[dict(day=1, lynched=["Ж"], night_deaths=["Б","Д"]),
                         dict(day=2, tally={"Е":2,"А":2}, night_deaths=["В"], checks=[dict(seer="А", target="Г", result="werewolf")])]),
  rules=dict(tie="none"))
S("r_hamster_1_checked_dies", "R-HAMSTER-1: a checked hamster is seen as not a werewolf and dies; his kill still counts.",
  "А:seer Б:werewolf В:hamster Г:passenger Д:passenger Е:passenger",
  [dict(orders=ALL_E + [o("А","check","В"), o("В","kill","Г"), o("Б","kill","Д")])],
  dict(winner=None, days=[dict(day=1, night_deaths=["В","Г","Д"], checks=[dict(seer="А", target="В", result="not_werewolf")])]))
S("r_nurse_1_heal_saves_checked_hamster", "R-NURSE-1: a heal saves the hamster from dying when checked.",
  "А:seer Б:werewolf В:hamster Г:nurse Д:passenger Е:passenger",
  [dict(orders=ALL_E + [o("А","check","В"), o("Г","heal","В"), o("Б","kill","Д")])],
  dict(winner=None, days=[dict(day=1, night_deaths=["Д"])], players=[dict(name="В", alive=True)]))
S("r_hamster_1_glasses_no_death", "R-HAMSTER-1: black glasses on the hamster: the check fails and he does not die.",
  "А:seer Б:werewolf В:hamster:black_glasses Г:passenger Д:passenger Е:passenger",
  [dict(orders=ALL_E + [o("А","check","В")])],
  dict(winner=None, days=[dict(day=1, night_deaths=[], checks=[dict(seer="А", target="В", result="failed")])]))
S("hamster_kill", "Step 19: the hamster kills any player at night.",
  "А:seer Б:werewolf В:hamster Г:passenger Д:passenger Е:passenger",
  [dict(orders=ALL_E + [o("В","kill","Б")])], dict(winner=None, days=[dict(day=1, night_deaths=["Б"])]))
S("r_win_1_hamster_wins", "R-WIN-1: only the hamster alive: the hamster wins.",
  "А:passenger Б:werewolf В:hamster",
  [dict(orders=[V("А","Б"), V("В","Б"), V("Б","А"), o("В","kill","А")])],
  dict(winner="hamster", days=[dict(day=1, tally={"Б":2,"А":1}, lynched=["Б"], night_deaths=["А"])]))
S("r_win_1_draw_nobody_alive", "R-WIN-1: nobody alive after the night: draw.",
  "А:werewolf Б:hamster В:passenger",
  [dict(orders=[V("А","В"), V("Б","В"), V("В","А"), o("А","kill","Б"), o("Б","kill","А")])],
  dict(winner="draw", days=[dict(day=1, lynched=["В"], night_deaths=["А","Б"])]))
S("r_win_1_werewolves_win", "R-WIN-1: no civilian and no hamster alive: werewolves win.",
  "А:passenger Б:werewolf В:passenger",
  [dict(orders=[V("А","В"), V("Б","В"), V("В","А"), o("Б","kill","А")])],
  dict(winner="werewolves", days=[dict(day=1, lynched=["В"], night_deaths=["А"])]))
# ---- nurse
S("r_nurse_1_heal_saves", "R-NURSE-1: a heal cancels the werewolves' kill.",
  "А:nurse Б:werewolf В:passenger Г:passenger Д:passenger Е:passenger",
  [dict(orders=ALL_E + [o("Б","kill","В"), o("А","heal","В")])], dict(winner=None, days=[dict(day=1, night_deaths=[])]))
S("r_once_1_nurse_self_heal_once", "R-ONCE-1: the nurse heals herself once; a second self-heal is refused.",
  "А:seer Б:werewolf В:nurse Г:passenger Д:passenger Е:passenger Ж:passenger",
  [dict(orders=[V(x,"Е") for x in "АБВГДЖ"] + [V("Е","А"), o("Б","kill","В"), o("В","heal","В")]),
   dict(orders=[V(x,"Ж") for x in "АБВГД"] + [V("Ж","А"), o("Б","kill","В"), o("В","heal","В")])],
  dict(winner=None, days=[dict(day=1, tally={"Е":6,"А":1}, night_deaths=[]),
                         dict(day=2, lynched=["Ж"], night_deaths=["В"], rejected=[dict(by="В", act="heal", reason="self_heal_used")])]))
S("r_nurse_1_heal_witch_kill", "R-NURSE-1: a heal also cancels the witch's kill.",
  "А:nurse Б:werewolf В:witch Г:passenger Д:passenger Е:passenger",
  [dict(orders=ALL_E + [o("В","kill","Г"), o("А","heal","Г")])], dict(winner=None, days=[dict(day=1, night_deaths=[])]))
# ---- maniac and camo robe
S("maniac_assault_blocks_vote", "R-VOTE-2: the maniac's victim has no vote next day; it counts on themself.",
  "А:maniac Б:werewolf В:passenger Г:passenger Д:passenger Е:passenger Ж:passenger",
  [dict(orders=[V(x,"Ж") for x in "АБВГДЕ"] + [V("Ж","А"), o("А","assault","В")]),
   dict(orders=[V("В","Б"), V("А","Б"), V("Г","Б"), V("Б","Д"), V("Д","Е"), V("Е","Д")])],
  dict(days=[dict(day=1, assaulted=["В"], night_deaths=[]), dict(day=2, tally={"Б":2,"Д":2,"В":1,"Е":1}, lynched=[])]), rules=dict(tie="none"))
S("camo_robe_saves_from_maniac", "Step 18: the camo robe saves its holder from the maniac and is spent.",
  "А:maniac Б:werewolf В:passenger:camo_robe Г:passenger Д:passenger Е:passenger",
  [dict(orders=ALL_E + [o("А","assault","В")])],
  dict(players=[dict(name="В", item_charged=False)], days=[dict(day=1, assaulted=[], items_used=[dict(by="В", item="camo_robe")])]))
# ---- witch
S("witch_kill", "Step 10: the witch kills one player.",
  "А:witch Б:werewolf В:passenger Г:passenger Д:passenger Е:passenger",
  [dict(orders=ALL_E + [o("А","kill","Б")])], dict(winner="civilians", days=[dict(day=1, night_deaths=["Б"])]))
S("r_once_1_witch_second_kill_refused", "R-ONCE-1: the witch's kill is once per game; a second is refused.",
  "А:witch Б:werewolf В:werewolf Г:passenger Д:passenger Е:passenger Ж:passenger",
  [dict(orders=[V(x,"Ж") for x in "АБВГДЕ"] + [V("Ж","А"), o("А","kill","Б")]),
   dict(orders=[V("А","Е"), V("В","Е"), V("Г","Е"), V("Д","Е"), V("Е","А"), o("А","kill","В")])],
  dict(days=[dict(day=1, night_deaths=["Б"]), dict(day=2, lynched=["Е"], night_deaths=[], rejected=[dict(by="А", act="kill", reason="ability_used")])]))
S("witch_cancel_blocks_all", "Step 10: the witch's cancel voids every other night order.",
  "А:witch Б:werewolf В:seer Г:passenger Д:passenger Е:passenger",
  [dict(orders=ALL_E + [o("А","cancel"), o("Б","kill","Г"), o("В","check","Б")])], dict(days=[dict(day=1, night_deaths=[], checks=[])]))
S("witch_kill_then_cancel_last_counts", "R-ORDER-1: the witch's night order is the last sent; kill then cancel means only the cancel (never both).",
  "А:witch Б:werewolf В:passenger Г:passenger Д:passenger Е:passenger",
  [dict(orders=ALL_E + [o("А","kill","В",at="10:00"), o("А","cancel",at="11:00"), o("Б","kill","Г")])], dict(days=[dict(day=1, night_deaths=[])]))
# ---- sleepwalker
S("sleepwalker_swap_moves_fern", "Step 11: the sleepwalker's swap takes effect before the werewolves: the fern now protects someone else.",
  "А:sleepwalker Б:werewolf В:passenger:moon_fern Г:passenger Д:passenger Е:passenger",
  [dict(orders=ALL_E + [o("А","swap",["В","Г"]), o("Б","kill","В")])],
  dict(players=[dict(name="Г", item="moon_fern", item_charged=True)], days=[dict(day=1, night_deaths=["В"])]))
S("sleepwalker_recharge_shocker", "R-SLEEP-1: recharge makes a spent item charged again.",
  "А:sleepwalker Б:werewolf В:passenger:shocker Г:passenger Д:passenger Е:passenger",
  [dict(orders=ALL_E + [o("В","use","Д"), o("А","recharge","В")])],
  dict(players=[dict(name="В", item="shocker", item_charged=True)], days=[dict(day=1, tally={"Е":4,"А":1,"Д":1}, lynched=["Е"], items_used=[dict(by="В", item="shocker", target="Д")])]))
S("r_sleep_1_swap_on_storm", "R-SLEEP-1: swap works on Magnetic storm; the moved fern does nothing that night.",
  "А:sleepwalker Б:werewolf В:passenger Г:passenger:moon_fern Д:passenger Е:passenger",
  [dict(event="magnetic_storm", orders=ALL_E + [o("А","swap",["В","Г"]), o("Б","kill","В")])],
  dict(players=[dict(name="Г", item=None)], days=[dict(day=1, night_deaths=["В"])]))
# ---- authority
S("r_auth_1_moves_vote", "R-AUTH-1: the authority moves one player's vote.",
  "А:authority Б:werewolf В:passenger Г:passenger Д:passenger",
  [dict(orders=[V("А","Б"), V("В","Б"), V("Г","А"), V("Д","А"), V("Б","А"), o("А","authority","Б", from_="Д")])],
  dict(winner="civilians", days=[dict(day=1, tally={"Б":3,"А":2}, lynched=["Б"])]))
S("r_auth_1_moves_self_vote", "R-AUTH-1: a missing vote (on its owner) is what moves.",
  "А:authority Б:werewolf В:passenger Г:passenger Д:passenger",
  [dict(orders=[V("А","Б"), V("В","Б"), V("Г","А"), V("Б","А"), o("А","authority","Б", from_="Д")])],
  dict(winner="civilians", days=[dict(day=1, tally={"Б":3,"А":2}, lynched=["Б"])]))
S("r_once_1_authority_once", "R-ONCE-1: the authority is once per game; the second is refused.",
  "А:authority Б:werewolf В:passenger Г:passenger Д:passenger Е:passenger Ж:passenger",
  [dict(orders=[V(x,"Ж") for x in "АБВГДЕ"] + [V("Ж","А"), o("А","authority","Б", from_="Ж")]),
   dict(orders=[V("А","Б"), V("В","Б"), V("Г","Б"), V("Б","А"), V("Д","А"), V("Е","А"), o("А","authority","Б", from_="Д")])],
  dict(days=[dict(day=2, tally={"А":3,"Б":3}, rejected=[dict(by="А", act="authority", reason="ability_used")])]), rules=dict(tie="none"))
# ---- items by day
S("poison_thorn_penalty", "R-VOTE-2: a host penalty (poison thorn violation) puts the vote on its owner.",
  "А:passenger:poison_thorn Б:werewolf В:passenger Г:passenger Д:passenger",
  [dict(orders=[V("А","Б"), V("В","Б"), V("Г","Б"), V("Б","Г"), V("Д","Г"), o("host","penalty","А")])],
  dict(days=[dict(day=1, tally={"Б":2,"Г":2,"А":1})]), rules=dict(tie="none"))
S("r_item_6_totem_void", "R-ITEM-6: a totem holder's vote matching neither neighbour's is void and counts on the holder.",
  "А:passenger Б:passenger:totem В:werewolf Г:passenger Д:passenger",
  [dict(orders=[V("А","Г"), V("В","Г"), V("Б","В"), V("Г","В"), V("Д","В")])],
  dict(days=[dict(day=1, tally={"Г":2,"В":2,"Б":1}, lynched=[])]), rules=dict(tie="none"))
S("r_item_6_totem_follows_neighbour", "R-ITEM-6: a totem holder may vote as a neighbour votes.",
  "А:passenger Б:passenger:totem В:werewolf Г:passenger Д:passenger",
  [dict(orders=[V("А","В"), V("В","Г"), V("Б","В"), V("Г","В"), V("Д","Г")])],
  dict(winner="civilians", days=[dict(day=1, tally={"В":3,"Г":2}, lynched=["В"])]))
S("r_item_4_handcuffs_void", "R-ITEM-4: a handcuffs holder may not vote against a living neighbour; the vote counts on the holder.",
  "А:passenger Б:werewolf:handcuffs В:passenger Г:passenger Д:passenger",
  [dict(orders=[V("А","Б"), V("В","Б"), V("Б","В"), V("Г","Д"), V("Д","Г")])],
  dict(days=[dict(day=1, tally={"Б":3,"Г":1,"Д":1}, lynched=["Б"])], winner="civilians"))
S("r_item_4_handcuffs_dead_neighbour", "R-ITEM-4: neighbours are the nearest living players (cyclic): with Аня dead the handcuffed Боря may not vote for Жора, the last in the list.",
  "А:passenger Б:werewolf:handcuffs В:passenger Г:passenger Д:passenger Е:passenger Ж:werewolf",
  [dict(orders=[V(x,"А") for x in "БВГДЕЖ"]),
   dict(orders=[V("Б","Ж"), V("В","Г"), V("Г","В"), V("Д","Г"), V("Е","В"), V("Ж","Б")])],
  dict(days=[dict(day=1, lynched=["А"]), dict(day=2, tally={"Г":2,"В":2,"Б":2})]), rules=dict(tie="none"))
S("r_item_5_megaphone_extra_vote", "R-ITEM-5: the megaphone casts one extra vote.",
  "А:passenger:megaphone Б:werewolf В:passenger Г:passenger Д:passenger",
  [dict(orders=[V("А","Б"), o("А","megaphone","Б"), V("В","Б"), V("Б","А"), V("Г","А"), V("Д","Б")])],
  dict(winner="civilians", days=[dict(day=1, tally={"Б":4,"А":2}, lynched=["Б"])]))
S("r_item_5_megaphone_not_sent", "R-ITEM-5: a megaphone vote not sent is not cast and never falls back on the holder.",
  "А:passenger:megaphone Б:werewolf В:passenger Г:passenger Д:passenger",
  [dict(orders=[V("А","Б"), V("В","Б"), V("Б","А"), V("Г","А"), V("Д","Г")])],
  dict(days=[dict(day=1, tally={"Б":2,"А":2,"Г":1}, lynched=[])]), rules=dict(tie="none"))
S("shocker_blocks_vote", "R-ITEM-3 + R-VOTE-2: a shocked player has no vote that day; it counts on themself.",
  "А:passenger:shocker Б:werewolf В:passenger Г:passenger Д:passenger",
  [dict(orders=[o("А","use","Б"), V("А","Б"), V("В","Б"), V("Б","А"), V("Г","А"), V("Д","Б")])],
  dict(winner="civilians", players=[dict(name="А", item_charged=False)],
       days=[dict(day=1, tally={"Б":4,"А":1}, lynched=["Б"], items_used=[dict(by="А", item="shocker", target="Б")])]))
S("love_note_void_vote", "R-VOTE-2: with a love note the target's vote against the sender is void.",
  "А:passenger:love_note Б:werewolf В:passenger Г:passenger Д:passenger",
  [dict(orders=[o("А","use","Б"), V("А","Г"), V("Б","А"), V("В","Б"), V("Г","Б"), V("Д","А")])],
  dict(days=[dict(day=1, tally={"Б":3,"Г":1,"А":1}, lynched=["Б"], items_used=[dict(by="А", item="love_note", target="Б")])]))
S("voodoo_blocks_wolf", "Step 9: the voodoo doll voids the target's night ability.",
  "А:passenger:voodoo Б:werewolf В:passenger Г:passenger Д:passenger Е:passenger",
  [dict(orders=ALL_E + [o("А","use","Б"), o("Б","kill","В")])],
  dict(days=[dict(day=1, night_deaths=[], items_used=[dict(by="А", item="voodoo", target="Б")])]))
S("r_item_7_voodoo_user_lynched", "R-ITEM-7: a voodoo doll whose user is lynched that day does nothing.",
  "А:passenger Б:werewolf В:passenger Г:passenger Д:passenger Е:passenger:voodoo",
  [dict(orders=ALL_E + [o("Е","use","Б"), o("Б","kill","В")])],
  dict(days=[dict(day=1, lynched=["Е"], night_deaths=["В"])]))
S("trap_tie_holder_lynched_dup", "R-TIE-1: the trap holder loses a tie against a fang-less non-holder even with tie = none.",
  "А:passenger Б:werewolf:trap В:passenger Г:passenger Д:passenger",
  [dict(orders=TIE)], dict(winner="civilians", days=[dict(day=1, lynched=["Б"])]), rules=dict(tie="none"))
# ---- fog night
S("fog_night_check_needs_vote", "Step 8: on Fog night a seer who did not vote for the target checks nothing.",
  "А:seer Б:werewolf В:passenger Г:passenger Д:passenger Е:passenger",
  [dict(event="fog_night", orders=[V("А",["Е","Г"]), V("Б",["Е","В"]), V("В",["Е","А"]), V("Г",["Е","А"]), V("Д",["Е","А"]), V("Е",["А","В"]), o("А","check","Б"), o("Б","kill","В")])],
  dict(days=[dict(day=1, tally={"Е":5,"А":4,"В":2,"Г":1}, lynched=["Е"], checks=[], night_deaths=["В"])]))
S("fog_night_voodoo_one_of_two_wolves", "Step 8 + 9: on Fog night the pack is blocked only if every werewolf who voted for the victim is voodooed.",
  "А:passenger:voodoo Б:werewolf В:passenger Г:passenger Д:passenger Е:werewolf Ж:passenger З:passenger",
  [dict(event="fog_night", orders=[V("А",["Ж","Г"]), V("Б",["Ж","В"]), V("Е",["Ж","В"]), V("В",["Ж","Г"]), V("Г",["Ж","Д"]), V("Д",["Ж","Г"]), V("Ж",["Г","Д"]), V("З",["Ж","Д"]), o("А","use","Е"), o("Б","kill","В")])],
  dict(days=[dict(day=1, lynched=["Ж"], night_deaths=["В"])]))
S("fog_night_voodoo_only_wolf", "Step 8 + 9: on Fog night the only werewolf who voted for the victim (not the actor) is voodooed: the pack is blocked.",
  "А:passenger:voodoo Б:werewolf В:passenger Г:passenger Д:passenger Е:werewolf Ж:passenger З:passenger",
  [dict(event="fog_night", orders=[V("А",["Ж","Г"]), V("Б",["Ж","Г"]), V("Е",["Ж","В"]), V("В",["Ж","Г"]), V("Г",["Ж","Д"]), V("Д",["Ж","Г"]), V("Ж",["Г","Д"]), V("З",["Ж","Д"]), o("А","use","Е"), o("Б","kill","В")])],
  dict(days=[dict(day=1, night_deaths=[])]))
# ---- events at 13:00
S("r_bunker_1_new_item", "R-BUNKER-1: a bunker order returns the item to the reserve and draws the fixed new one.",
  "А:passenger:fang Б:werewolf В:passenger Г:passenger Д:passenger Е:passenger",
  [dict(event="bunker", orders=ALL_E + [o("А","bunker",item="trap",at="10:00")])],
  dict(players=[dict(name="А", item="trap")], days=[dict(day=1, event="bunker", lynched=["Е"])]))
S("r_event_1_bunker_after_13", "R-EVENT-1: a bunker order after 13:00 is refused.",
  "А:passenger:fang Б:werewolf В:passenger Г:passenger Д:passenger Е:passenger",
  [dict(event="bunker", orders=ALL_E + [o("А","bunker",item="trap",at="14:00")])],
  dict(players=[dict(name="А", item="fang")], days=[dict(day=1, rejected=[dict(by="А", act="bunker", reason="after_13")])]))
S("refusal_wrong_event_bunker", "R-ORDER-1: a bunker order on a day without Bunker is refused.",
  "А:passenger:fang Б:werewolf В:passenger Г:passenger Д:passenger Е:passenger",
  [dict(orders=ALL_E + [o("А","bunker",at="10:00")])],
  dict(players=[dict(name="А", item="fang")], days=[dict(day=1, rejected=[dict(by="А", act="bunker", reason="wrong_event")])]))
S("r_deck_1_reserve_empty", "R-DECK-1 + R-BUNKER-1: the reserve is the deck minus the items dealt; empty, the bunker fails.",
  "А:passenger:fang Б:werewolf В:passenger Г:passenger Д:passenger Е:passenger",
  [dict(event="bunker", orders=ALL_E + [o("А","bunker",at="10:00")])],
  dict(players=[dict(name="А", item="fang")], days=[dict(day=1, rejected=[dict(by="А", act="bunker")])]), top=dict(deck=["fang"]))
S("r_tsunami_1_spent_items_stay_spent", "R-TSUNAMI-1: items keep their state through the re-deal; a spent shocker dealt to another stays spent.",
  "А:passenger:shocker Б:werewolf В:passenger:fang Г:passenger Д:passenger Е:passenger",
  [dict(orders=ALL_E + [o("А","use","Г")]),
   dict(event="tsunami", deal={"А":"fang","Б":"none","В":"shocker","Г":"none","Д":"none"}, orders=[o("В","use","Б",at="15:00")])],
  dict(players=[dict(name="А", item="fang"), dict(name="В", item="shocker", item_charged=False)],
       days=[dict(day=1, tally={"Е":4,"Г":1,"А":1}, lynched=["Е"]), dict(day=2, event="tsunami", lynched=[], rejected=[dict(by="В", act="use", reason="item_spent")])]),
  rules=dict(tie="none"))
S("exchange_swap_recharges", "Exchange: two players naming each other swap items; a spent item comes back charged.",
  "А:passenger:shocker Б:werewolf В:passenger:fang Г:passenger Д:passenger Е:passenger",
  [dict(orders=ALL_E + [o("А","use","Г")]),
   dict(event="exchange", orders=[o("А","exchange","В",at="10:00"), o("В","exchange","А",at="11:00")])],
  dict(players=[dict(name="А", item="fang"), dict(name="В", item="shocker", item_charged=True)]), rules=dict(tie="none"))
S("exchange_one_sided_nothing", "Exchange: a one-sided exchange does nothing.",
  "А:passenger:shocker Б:werewolf В:passenger:fang Г:passenger Д:passenger Е:passenger",
  [dict(event="exchange", orders=ALL_E + [o("А","exchange","В",at="10:00")])],
  dict(players=[dict(name="А", item="shocker"), dict(name="В", item="fang")]))
S("mystic_light_recharges", "Mystic light: the holder of a spent item recharges it with light.",
  "А:passenger:shocker Б:werewolf В:passenger Г:passenger Д:passenger Е:passenger",
  [dict(orders=ALL_E + [o("А","use","Г")]), dict(event="mystic_light", orders=[o("А","light",at="10:00")])],
  dict(players=[dict(name="А", item="shocker", item_charged=True)]), rules=dict(tie="none"))
S("refusal_light_nothing_to_recharge", "Mystic light: light without a spent activated item is refused.",
  "А:passenger:shocker Б:werewolf В:passenger Г:passenger Д:passenger Е:passenger",
  [dict(event="mystic_light", orders=ALL_E + [o("А","light",at="10:00")])],
  dict(days=[dict(day=1, rejected=[dict(by="А", act="light", reason="nothing_to_recharge")])]))
S("r_item_7_storm_use_refused", "R-ITEM-7: on Magnetic storm an item use is refused and the item stays charged.",
  "А:passenger:shocker Б:werewolf В:passenger Г:passenger Д:passenger Е:passenger",
  [dict(event="magnetic_storm", orders=ALL_E + [o("А","use","Б")])],
  dict(players=[dict(name="А", item_charged=True)], days=[dict(day=1, tally={"Е":5,"А":1}, rejected=[dict(by="А", act="use", reason="magnetic_storm")])]))
S("magnetic_storm_automatic_items", "Magnetic storm: no item works, automatic ones neither: the sheep skin does not save from the lynch, the fern not from the wolves.",
  "А:passenger Б:werewolf В:passenger:moon_fern Г:passenger Д:passenger Е:passenger:sheep_skin",
  [dict(event="magnetic_storm", orders=ALL_E + [o("Б","kill","В")])],
  dict(days=[dict(day=1, lynched=["Е"], night_deaths=["В"])]))
S("magnetic_storm_bomb_silent", "Magnetic storm: a bomb holder with two votes does not fire.",
  "А:passenger:bomb Б:werewolf В:passenger Г:passenger Д:passenger",
  [dict(event="magnetic_storm", orders=[V("В","Б"), V("Г","Б"), V("Д","Б"), V("Б","А"), V("А","А")])],
  dict(winner="civilians", days=[dict(day=1, tally={"Б":3,"А":2}, lynched=["Б"])]))
S("solar_eclipse_lynch_as_usual", "Solar eclipse: only roles are hidden; the lynch and the night go on as usual.",
  P6, [dict(event="solar_eclipse", orders=ALL_E + [o("Б","kill","В")])],
  dict(days=[dict(day=1, event="solar_eclipse", lynched=["Е"], night_deaths=["В"])]))
S("r_spirit_1_first_question", "R-SPIRIT-1: the first question of the day is the one asked; a second is refused.",
  P6, [dict(event="spirit_call", orders=ALL_E + [o("А","ask",text="Боря оборотень?",at="10:00"), o("В","ask",text="Гена оборотень?",at="11:00"), o("host","answer",answer="yes",at="12:00")])],
  dict(days=[dict(day=1, event="spirit_call", lynched=["Е"], rejected=[dict(by="В", act="ask", reason="already_asked")])]))
S("refusal_ask_wrong_event", "R-ORDER-1: a question to the Spirit on another day is refused.",
  P6, [dict(orders=ALL_E + [o("А","ask",text="Боря оборотень?",at="10:00")])],
  dict(days=[dict(day=1, rejected=[dict(by="А", act="ask", reason="wrong_event")])]))
S("palms_bloom_penalty", "R-VOTE-2: on Palms bloom a violator flagged by the host votes on themself.",
  "А:passenger Б:werewolf В:passenger Г:passenger Д:passenger",
  [dict(event="palms_bloom", orders=[V("А","Б"), V("В","Б"), V("Г","Б"), V("Б","Г"), V("Д","Г"), o("host","penalty","В",reason="palms")])],
  dict(days=[dict(day=1, tally={"Б":2,"Г":2,"В":1}, lynched=[])]), rules=dict(tie="none"))
# ---- house rules
S("r_win_2_parity", "R-WIN-2: with parity the werewolves win when as many as the others.",
  "А:passenger Б:werewolf В:passenger Г:passenger",
  [dict(orders=[V("А","Г"), V("Б","Г"), V("В","Г"), V("Г","А"), o("Б","kill","В")])],
  dict(winner="werewolves", days=[dict(day=1, lynched=["Г"], night_deaths=["В"])]), rules=dict(parity=True))
S("r_win_2_no_parity_default", "R-WIN-2: without parity (default) one werewolf and one civilian play on.",
  "А:passenger Б:werewolf В:passenger Г:passenger",
  [dict(orders=[V("А","Г"), V("Б","Г"), V("В","Г"), V("Г","А"), o("Б","kill","В")])],
  dict(winner=None, days=[dict(day=1, lynched=["Г"], night_deaths=["В"])]))
S("r_win_3_max_days", "R-WIN-3: the game ends in a draw after max_days.",
  P6, [dict(orders=ALL_E)], dict(winner="draw", days=[dict(day=1, lynched=["Е"], night_deaths=[])]), rules=dict(max_days=1))
EV = ["bunker","fear","rage","magnetic_storm","tsunami","exchange","mystic_light","choose_me","solar_eclipse","lunar_eclipse","full_moon","fog_night","spirit_call","palms_bloom"]
S("house_event_weights", "House rule events: with every weight 0 but Fear, the drawn event is Fear.",
  P6, [dict(event=None)], dict(days=[dict(day=1, event="fear")]), rules=dict(events={e: (1 if e == "fear" else 0) for e in EV}))
S("house_no_repeat", "House rule no_repeat: the same event never two days running.",
  P6, [dict(event="lunar_eclipse", orders=ALL_E), dict(event=None)],
  dict(days=[dict(day=1, event="lunar_eclipse"), dict(day=2, event="full_moon")]),
  rules=dict(no_repeat=True, events={e: (1 if e in ("lunar_eclipse","full_moon") else 0) for e in EV}))
S("r_deck_1_host_deck", "R-DECK-1: the host's deck deals the items.",
  "А:passenger:- Б:werewolf:- В:passenger:- Г:passenger:- Д:passenger:-",
  [dict(orders=[])], dict(players=[dict(name=x, item="fang") for x in "АБВГД"]), top=dict(deck=["fang"]*5), rules=dict(tie="none"))
# ---- refusals
S("refusal_late", "Timing: an order after 21:00 is refused as late; the vote counts on its owner.",
  "А:seer Б:werewolf В:passenger Г:passenger Д:passenger",
  [dict(orders=[V("А","Б",at="21:30"), V("В","Б"), V("Г","Б"), V("Д","А"), V("Б","А")])],
  dict(days=[dict(day=1, tally={"Б":2,"А":3}, lynched=["А"], rejected=[dict(by="А", act="vote", reason="late")])]))
S("refusal_sender_dead", "R-ORDER-1: an order by a dead player is refused.",
  P6, [dict(orders=ALL_E), dict(orders=[V("Е","Б"), o("Е","kill","А")])],
  dict(days=[dict(day=2, rejected=[dict(by="Е", act="vote", reason="sender_dead")])]), rules=dict(tie="none"))
S("refusal_target_dead", "R-ORDER-1: a vote for a dead player is refused and counts on its owner.",
  P6, [dict(orders=ALL_E), dict(orders=[V("А","Е"), V("В","Б"), V("Г","Б"), V("Д","Б")])],
  dict(days=[dict(day=2, tally={"Б":4,"А":1}, lynched=["Б"], rejected=[dict(by="А", act="vote", reason="target_dead")])]))
S("refusal_not_your_ability", "R-ORDER-1: a passenger cannot check.",
  P6, [dict(orders=ALL_E + [o("В","check","Б")])], dict(days=[dict(day=1, checks=[], rejected=[dict(by="В", act="check", reason="not_your_ability")])]))
S("refusal_item_spent", "R-ORDER-1: a spent shocker cannot be used again.",
  "А:passenger:shocker Б:werewolf В:passenger Г:passenger Д:passenger Е:passenger",
  [dict(orders=ALL_E + [o("А","use","Г")]), dict(orders=[o("А","use","Б")])],
  dict(days=[dict(day=2, rejected=[dict(by="А", act="use", reason="item_spent")])]), rules=dict(tie="none"))
S("refusal_no_item", "R-ORDER-1: a use without an activated item is refused.",
  P6, [dict(orders=ALL_E + [o("В","use","Б")])], dict(days=[dict(day=1, rejected=[dict(by="В", act="use", reason="no_item")])]))
S("refusal_wrong_item", "R-ORDER-1: a use naming another item than the one held is refused.",
  "А:passenger:shocker Б:werewolf В:passenger Г:passenger Д:passenger Е:passenger",
  [dict(orders=ALL_E + [o("А","use","Б",item="voodoo")])],
  dict(players=[dict(name="А", item_charged=True)], days=[dict(day=1, rejected=[dict(by="А", act="use", reason="wrong_item")])]))
S("refusal_host_only", "R-ORDER-1: only the host sends a penalty.",
  P6, [dict(orders=ALL_E + [o("А","penalty","Б")])], dict(days=[dict(day=1, tally={"Е":5,"А":1}, rejected=[dict(by="А", act="penalty", reason="host_only")])]))
S("host_remove", "The host removes a player: they die (removed) and their orders do not count.",
  P6, [dict(orders=ALL_E + [o("Б","kill","В"), o("host","remove","Б",at="20:00")])],
  dict(winner="civilians", players=[dict(name="Б", alive=False, death="removed", died_on_day=1)], days=[dict(day=1, night_deaths=[])]))
S("error_unknown_player", "GAME_FILE: an order by an unknown player is an error.",
  P6, [dict(orders=[V("Незнакомец","А")])], {"error": "Незнакомец"})
# ---- more rulings
S("r_auth_1_works_when_own_vote_blocked", "R-AUTH-1: the authority's order works even when the authority's own vote is blocked (shocked).",
  "А:authority Б:werewolf В:passenger:shocker Г:passenger Д:passenger",
  [dict(orders=[o("В","use","А"), V("А","Б"), V("В","Б"), V("Г","Б"), V("Д","А"), V("Б","А"), o("А","authority","Б", from_="Д")])],
  dict(winner="civilians", days=[dict(day=1, tally={"Б":3,"А":2}, lynched=["Б"])]))
S("r_once_1_witch_kill_voodooed_not_used", "R-ONCE-1: a witch kill stopped by a voodoo doll is not used up; she kills the next night.",
  "А:witch Б:werewolf В:passenger:voodoo Г:passenger Д:passenger Е:passenger Ж:passenger",
  [dict(orders=[V(x,"Ж") for x in "АБВГДЕ"] + [V("Ж","А"), o("В","use","А"), o("А","kill","Б")]),
   dict(orders=[V(x,"Е") for x in "АБВГД"] + [V("Е","А"), o("А","kill","Б")])],
  dict(winner="civilians", days=[dict(day=1, lynched=["Ж"], night_deaths=[]), dict(day=2, lynched=["Е"], night_deaths=["Б"])]))
S("r_item_5_blocked_holder_no_megaphone", "R-ITEM-5: a megaphone holder whose vote is blocked casts no megaphone vote either.",
  "А:passenger:megaphone Б:werewolf В:passenger:shocker Г:passenger Д:passenger",
  [dict(orders=[o("В","use","А"), V("А","Б"), o("А","megaphone","Б"), V("В","Б"), V("Г","Б"), V("Б","А"), V("Д","А")])],
  dict(winner=None, days=[dict(day=1, tally={"Б":2,"А":3}, lynched=["А"])]))
S("r_skin_1_tie_all_skin_saved", "R-SKIN-1: with tie = all a sheep-skin holder among the tied is saved and the runner-up is lynched.",
  "А:passenger:sheep_skin Б:werewolf В:passenger Г:passenger Д:passenger",
  [dict(orders=TIE)],
  dict(winner="civilians", players=[dict(name="А", alive=True, item_charged=False)], days=[dict(day=1, lynched=["Б","Д"])]), rules=dict(tie="all"))
S("r_item_3_voodoo_cancelled_spent", "R-ITEM-3: a voodoo doll used and then cancelled by the witch is spent anyway.",
  "А:passenger:voodoo Б:werewolf В:witch Г:passenger Д:passenger Е:passenger",
  [dict(orders=ALL_E + [o("А","use","Б"), o("В","cancel"), o("Б","kill","Г")])],
  dict(players=[dict(name="А", item_charged=False)], days=[dict(day=1, night_deaths=[])]))
S("r_nurse_1_heal_does_not_undo_assault", "R-NURSE-1: a heal does not undo the maniac's assault.",
  "А:maniac Б:werewolf В:passenger Г:nurse Д:passenger Е:passenger",
  [dict(orders=ALL_E + [o("А","assault","В"), o("Г","heal","В")])], dict(days=[dict(day=1, assaulted=["В"], night_deaths=[])]))
S("witch_cancel_voided_by_voodoo", "Step 9-10: a voodoo on the witch voids her cancel; the werewolves kill as usual.",
  "А:passenger:voodoo Б:werewolf В:witch Г:passenger Д:passenger Е:passenger",
  [dict(orders=ALL_E + [o("А","use","В"), o("В","cancel"), o("Б","kill","Г")])], dict(days=[dict(day=1, night_deaths=["Г"])]))
S("r_half_1_turned_checked_werewolf_after_lynch", "R-HALF-1: after the last werewolf is lynched the halfblood is seen as a werewolf, and without a wolf kill the pack is the halfblood.",
  "А:seer Б:werewolf В:halfblood Г:passenger Д:passenger Е:passenger",
  [dict(orders=[V(x,"Б") for x in "АГДЕ"] + [V("Б","А"), V("В","А"), o("А","check","В"), o("В","kill","Г")])],
  dict(winner=None, days=[dict(day=1, tally={"Б":4,"А":2}, lynched=["Б"], night_deaths=["Г"], checks=[dict(seer="А", target="В", result="werewolf")])]))
RAGE2 = [V("А",["Б","В"]), V("В",["Б","А"]), V("Г",["Б","А"]), V("Д",["Б","В"]), V("Б",["Г","Д"])]
S("r_rage_1_tie_for_second_place", "R-RAGE-1: two tied for the one free place: R-TIE-1 (tie_break) picks one.",
  "А:passenger Б:werewolf В:passenger Г:passenger Д:passenger",
  [dict(event="rage", tie_break="В", orders=RAGE2)],
  dict(winner="civilians", days=[dict(day=1, tally={"Б":4,"А":2,"В":2,"Г":1,"Д":1}, lynched=["Б","В"])]))
S("r_rage_1_trap_for_second_place", "R-RAGE-1 + R-TIE-1: the trap holder among those tied for the second place is lynched.",
  "А:passenger:trap Б:werewolf В:passenger Г:passenger Д:passenger",
  [dict(event="rage", tie_break="В", orders=RAGE2)],
  dict(winner="civilians", days=[dict(day=1, lynched=["А","Б"])]))
S("r_item_6_totem_unsent_neighbour_vote", "R-ITEM-6: a neighbour's vote not sent counts as a vote for that neighbour, so the totem holder may vote for them.",
  "А:passenger Б:passenger:totem В:werewolf Г:passenger Д:passenger",
  [dict(orders=[V("Б","А"), V("В","Д"), V("Г","Д"), V("Д","А")])],
  dict(winner=None, days=[dict(day=1, tally={"А":3,"Д":2}, lynched=["А"])]))
