//! A game's schedule: the day opens at 22:00, the 13:00 stage, the 21:00 deadline —
//! wall-clock times in a time zone (Europe/Moscow by default), all configurable per game.

use jiff::civil::Time;
use jiff::tz::TimeZone;
use jiff::Timestamp;
use ostrov_engine::Clock;
use serde::{Deserialize, Serialize};

/// The schedule as the host writes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Schedule {
    /// An IANA time zone name.
    #[serde(default = "Schedule::default_tz")]
    pub tz: String,
    /// When a new day opens (after the previous resolution).
    #[serde(default = "Schedule::default_open")]
    pub open: String,
    /// The intermediate stage (R-EVENT-1).
    #[serde(default = "Schedule::default_midday")]
    pub midday: String,
    /// The deadline and the resolution.
    #[serde(default = "Schedule::default_deadline")]
    pub deadline: String,
    /// A practice game on a fast clock (issue 32, point 4): the whole 24-hour cycle
    /// (22:00 → 13:00 → 21:00 → 22:00) runs in this many real minutes; `None`: a calendar day.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub day_minutes: Option<u32>,
}

impl Default for Schedule {
    fn default() -> Self {
        Schedule {
            tz: Self::default_tz(),
            open: Self::default_open(),
            midday: Self::default_midday(),
            deadline: Self::default_deadline(),
            day_minutes: None,
        }
    }
}

/// A checked schedule.
#[derive(Clone, Debug)]
pub struct Times {
    tz: TimeZone,
    open: Time,
    midday: Time,
    deadline: Time,
    /// A fast clock, if the game runs on one.
    fast: Option<Fast>,
}

/// A fast clock: the game's time runs `1440 / minutes` times faster than real time from
/// `origin` (the moment the game was created, where both clocks agree).
#[derive(Clone, Copy, Debug)]
struct Fast {
    minutes: u32,
    origin: i64,
}

/// The shortest and the longest day of a fast clock, in real minutes.
pub const FAST_MINUTES: std::ops::RangeInclusive<u32> = 3..=720;

/// One minute: an order sent during the minute of 13:00 (21:00) counts as sent at 13:00
/// (21:00), O-TIME-1; the stage runs when that minute is over.
pub const GRACE: i64 = 60;

impl Schedule {
    fn default_tz() -> String {
        "Europe/Moscow".into()
    }
    fn default_open() -> String {
        "22:00".into()
    }
    fn default_midday() -> String {
        "13:00".into()
    }
    fn default_deadline() -> String {
        "21:00".into()
    }

    /// Checks the zone and the three times; the message is in Russian.
    pub fn check(&self) -> Result<Times, String> {
        let tz = TimeZone::get(&self.tz).map_err(|_| format!("Неизвестный часовой пояс «{}».", self.tz))?;
        let time = |field: &str, s: &str| -> Result<Time, String> {
            let c = Clock::parse(s).ok_or_else(|| format!("Время {field} «{s}» должно быть в виде ЧЧ:ММ."))?;
            Ok(Time::constant((c.0 / 60) as i8, (c.0 % 60) as i8, 0, 0))
        };
        let open = time("открытия дня", &self.open)?;
        let midday = time("промежуточного этапа", &self.midday)?;
        let deadline = time("дедлайна", &self.deadline)?;
        if midday == deadline {
            return Err("Промежуточный этап и дедлайн не могут быть в одно время.".into());
        }
        let fast = match self.day_minutes {
            None => None,
            Some(m) if FAST_MINUTES.contains(&m) => Some(Fast { minutes: m, origin: 0 }),
            Some(m) => {
                return Err(format!(
                    "Длина дня (schedule.day_minutes) должна быть от {} до {} минут, а не {m}.",
                    FAST_MINUTES.start(),
                    FAST_MINUTES.end()
                ))
            }
        };
        Ok(Times { tz, open, midday, deadline, fast })
    }
}

impl Fast {
    /// The game's time at the real time `t` (rounded down to a second).
    fn game(&self, t: i64) -> i64 {
        let d = (t as i128 - self.origin as i128) * 1440;
        (self.origin as i128 + d.div_euclid(self.minutes as i128)).clamp(i64::MIN as i128 / 2, i64::MAX as i128 / 2)
            as i64
    }

    /// The first real second at which the game's time is `v` or later.
    fn real(&self, v: i64) -> i64 {
        let d = (v as i128 - self.origin as i128) * self.minutes as i128;
        (self.origin as i128 - (-d).div_euclid(1440)).clamp(i64::MIN as i128 / 2, i64::MAX as i128 / 2) as i64
    }
}

impl Times {
    /// The times of a game created at `at`: a fast clock starts there.
    pub fn anchored(mut self, at: i64) -> Times {
        if let Some(f) = &mut self.fast {
            f.origin = at;
        }
        self
    }

    /// The length of a fast clock's day in real minutes; `None` for a calendar game.
    pub fn day_minutes(&self) -> Option<u32> {
        self.fast.map(|f| f.minutes)
    }

    /// The real seconds that `secs` seconds of the game's time take (the same on a
    /// calendar day; on a fast clock at least one).
    pub fn span(&self, secs: i64) -> i64 {
        match self.fast {
            None => secs,
            Some(f) => ((secs as i128 * f.minutes as i128 / 1440) as i64).max(1),
        }
    }

    /// The grace after 13:00 and 21:00 in real seconds: the game's minute (O-TIME-1).
    pub fn grace(&self) -> i64 {
        self.span(GRACE)
    }

    /// The calendar schedule of the game's own time (a fast clock's, read as a calendar).
    fn calendar(&self) -> Times {
        Times { fast: None, ..self.clone() }
    }

    fn next(&self, at: Time, after: i64) -> i64 {
        let Ok(ts) = Timestamp::from_second(after) else { return after };
        let z = ts.to_zoned(self.tz.clone());
        let mut date = z.date();
        for _ in 0..3 {
            if let Ok(c) = date.to_datetime(at).to_zoned(self.tz.clone()) {
                if c.timestamp().as_second() > after {
                    return c.timestamp().as_second();
                }
            }
            date = date.tomorrow().unwrap_or(date);
        }
        after + 24 * 3600
    }

    /// The first opening time strictly after `after`.
    pub fn next_open(&self, after: i64) -> i64 {
        match self.fast {
            None => self.next(self.open, after),
            Some(f) => f.real(self.next(self.open, f.game(after))),
        }
    }

    /// The 13:00 stage and the deadline of a day that opens at `opened`.
    pub fn day_after_opening(&self, opened: i64) -> (i64, i64) {
        if let Some(f) = self.fast {
            let (midday, deadline) = self.calendar().day_after_opening(f.game(opened));
            return (f.real(midday), f.real(deadline));
        }
        let midday = self.next(self.midday, opened);
        (midday, self.next(self.deadline, midday))
    }

    /// The game-day time (the `at` of a game file) of an order sent at `now` on a day
    /// whose deadline is `deadline`: the wall-clock time, clamped so that the morning stays
    /// at or before 13:00 and the afternoon after 13:00 and at or before 21:00; an order
    /// sent on an earlier date (the evening before) is 00:00, one after the deadline's date
    /// is 21:00. Monotone in `now`, so the file's order by time is the order of arrival.
    /// On a fast clock, the same of the game's time (the scaled wall-clock time).
    pub fn clock(&self, now: i64, deadline: i64, afternoon: bool) -> Clock {
        if let Some(f) = self.fast {
            return self.calendar().clock(f.game(now), f.game(deadline), afternoon);
        }
        let local = |t: i64| Timestamp::from_second(t).map(|ts| ts.to_zoned(self.tz.clone())).ok();
        let (Some(n), Some(d)) = (local(now), local(deadline)) else { return Clock::NOON };
        let minutes = n.hour() as u16 * 60 + n.minute() as u16;
        let (lo, hi) = if afternoon { (Clock::MIDDAY.0 + 1, Clock::DEADLINE.0) } else { (0, Clock::MIDDAY.0) };
        let m = match n.date().cmp(&d.date()) {
            std::cmp::Ordering::Less => lo,
            std::cmp::Ordering::Equal => minutes.clamp(lo, hi),
            std::cmp::Ordering::Greater => hi,
        };
        Clock(m)
    }

    /// `t` as a reader says it, in the schedule's zone: «7 декабря, 21:30 по московскому
    /// времени» (issue 29, point 4: the history and the messages never show RFC 3339).
    /// On a fast clock, the game's time and the real one: «21:00 по часам игры (19:42:10 по
    /// московскому времени)».
    pub fn say(&self, t: i64) -> String {
        if let Some(f) = self.fast {
            return self.fast_say(f, t);
        }
        Timestamp::from_second(t).map(|ts| moment_ru(ts, &self.tz)).unwrap_or_default()
    }

    /// The game's time to say for the real second `t`: a real second spans many of the
    /// game's (288 on a 5-minute day), so the scheduled moment the second begins (22:00,
    /// 13:00, 21:00: [`Fast::real`] rounds it up to this second) is said as itself, not
    /// as the game's time at the second's end («21:04»); any other second as its game time.
    fn game_said(&self, f: Fast, t: i64) -> i64 {
        let (before, at) = (f.game(t - 1), f.game(t));
        let cal = self.calendar();
        [self.open, self.midday, self.deadline]
            .into_iter()
            .map(|moment| cal.next(moment, before))
            .filter(|m| *m <= at)
            .min()
            .unwrap_or(at)
    }

    fn fast_say(&self, f: Fast, t: i64) -> String {
        let local = |t: i64| Timestamp::from_second(t).map(|ts| ts.to_zoned(self.tz.clone())).ok();
        let (Some(g), Some(r)) = (local(self.game_said(f, t)), local(t)) else { return String::new() };
        format!(
            "{:02}:{:02} по часам игры ({:02}:{:02}:{:02} {})",
            g.hour(),
            g.minute(),
            r.hour(),
            r.minute(),
            r.second(),
            zone_ru(&self.tz)
        )
    }

    /// A deadline `t` as read at `now` (the countdown): [`until_ru`]; on a fast clock as
    /// [`Times::say`] says it (a practice day is minutes long: the date says nothing).
    pub fn until(&self, t: i64, now: i64) -> String {
        if let Some(f) = self.fast {
            return self.fast_say(f, t);
        }
        match (Timestamp::from_second(t), Timestamp::from_second(now)) {
            (Ok(ts), Ok(n)) => until_ru(ts, n, &self.tz),
            _ => String::new(),
        }
    }

    /// `t` briefly, in the schedule's zone: «14:21» on the date of `now` («14:21:07» on a
    /// fast clock), else «1 декабря, 23:10» (when an order was sent, next to it on the page).
    pub fn short(&self, t: i64, now: i64) -> String {
        let local = |t: i64| Timestamp::from_second(t).map(|ts| ts.to_zoned(self.tz.clone())).ok();
        let (Some(z), Some(n)) = (local(t), local(now)) else { return String::new() };
        if self.fast.is_some() && z.date() == n.date() {
            format!("{:02}:{:02}:{:02}", z.hour(), z.minute(), z.second())
        } else if z.date() == n.date() {
            format!("{:02}:{:02}", z.hour(), z.minute())
        } else {
            date_and_time(&z)
        }
    }

    /// `t` as «2 декабря, 14:21», in the schedule's zone.
    pub fn dated(&self, t: i64) -> String {
        Timestamp::from_second(t).map(|ts| date_and_time(&ts.to_zoned(self.tz.clone()))).unwrap_or_default()
    }

    /// `t` as an RFC 3339 time in the schedule's zone.
    pub fn show(&self, t: i64) -> String {
        Timestamp::from_second(t)
            .map(|ts| ts.to_zoned(self.tz.clone()).strftime("%Y-%m-%dT%H:%M:%S%:z").to_string())
            .unwrap_or_default()
    }
}

const MONTHS: [&str; 12] = [
    "января",
    "февраля",
    "марта",
    "апреля",
    "мая",
    "июня",
    "июля",
    "августа",
    "сентября",
    "октября",
    "ноября",
    "декабря",
];

/// A moment in words, in the zone `zone`: «2 декабря, 21:00 по московскому времени», or the
/// zone's IANA name in brackets for another zone.
pub fn moment_ru(ts: Timestamp, zone: &TimeZone) -> String {
    let z = ts.to_zoned(zone.clone());
    format!("{} {}", date_and_time(&z), zone_ru(zone))
}

/// The zone as the pages name it: «по московскому времени», «(Asia/Yekaterinburg)».
pub fn zone_ru(zone: &TimeZone) -> String {
    match zone.iana_name() {
        Some("Europe/Moscow") => "по московскому времени".to_string(),
        Some(other) => format!("({other})"),
        None => "(UTC)".to_string(),
    }
}

/// `ts` as a deadline is named from `now`: «21:00 по московскому времени» on the same
/// date, else «2 декабря, 21:00 по московскому времени».
pub fn until_ru(ts: Timestamp, now: Timestamp, zone: &TimeZone) -> String {
    let (z, n) = (ts.to_zoned(zone.clone()), now.to_zoned(zone.clone()));
    if z.date() == n.date() {
        format!("{:02}:{:02} {}", z.hour(), z.minute(), zone_ru(zone))
    } else {
        moment_ru(ts, zone)
    }
}

/// «2 декабря, 21:00»: the date and the time of `z`, in its own zone.
fn date_and_time(z: &jiff::Zoned) -> String {
    format!("{} {}, {:02}:{:02}", z.day(), MONTHS[(z.month() as usize).saturating_sub(1).min(11)], z.hour(), z.minute())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msk(s: &str) -> i64 {
        s.parse::<jiff::civil::DateTime>()
            .unwrap()
            .to_zoned(TimeZone::get("Europe/Moscow").unwrap())
            .unwrap()
            .timestamp()
            .as_second()
    }

    #[test]
    fn default_day_runs_from_22_to_21_moscow() {
        let t = Schedule::default().check().unwrap();
        let open = t.next_open(msk("2026-12-01T21:01:00"));
        assert_eq!(open, msk("2026-12-01T22:00:00"));
        let (mid, dl) = t.day_after_opening(open);
        assert_eq!(mid, msk("2026-12-02T13:00:00"));
        assert_eq!(dl, msk("2026-12-02T21:00:00"));
        assert_eq!(t.show(dl), "2026-12-02T21:00:00+03:00");
    }

    /// Issue 29, point 4: the history says a moment in Russian, never RFC 3339.
    #[test]
    fn a_moment_is_said_in_russian() {
        let t = Schedule::default().check().unwrap();
        assert_eq!(t.say(msk("2026-12-07T21:30:00")), "7 декабря, 21:30 по московскому времени");
    }

    #[test]
    fn clock_is_the_moscow_time_clamped_to_the_phase() {
        let t = Schedule::default().check().unwrap();
        let dl = msk("2026-12-02T21:00:00");
        assert_eq!(t.clock(msk("2026-12-01T23:30:00"), dl, false), Clock(0));
        assert_eq!(t.clock(msk("2026-12-02T09:15:40"), dl, false), Clock::hm(9, 15));
        // O-TIME-1: the minute of 13:00 is still the morning.
        assert_eq!(t.clock(msk("2026-12-02T13:00:59"), dl, false), Clock::hm(13, 0));
        assert_eq!(t.clock(msk("2026-12-02T13:00:59"), dl, true), Clock::hm(13, 1));
        assert_eq!(t.clock(msk("2026-12-02T20:59:00"), dl, true), Clock::hm(20, 59));
        assert_eq!(t.clock(msk("2026-12-03T01:00:00"), dl, true), Clock::DEADLINE);
    }

    /// Issue 32, point 4: a 24-minute day runs a game hour in a real minute from the
    /// moment the game was created; the game-day time of an order is the scaled one.
    #[test]
    fn a_fast_day_is_the_calendar_day_scaled() {
        let origin = msk("2026-12-01T21:00:00");
        let s = Schedule { day_minutes: Some(24), ..Schedule::default() };
        let t = s.check().unwrap().anchored(origin);
        assert_eq!(t.day_minutes(), Some(24));
        assert_eq!(t.grace(), 1, "the game's minute of 13:00 and 21:00");
        assert_eq!(t.span(3600), 60);
        let open = t.next_open(origin);
        assert_eq!(open, origin + 60, "22:00 of the game's clock");
        let (mid, dl) = t.day_after_opening(open);
        assert_eq!((mid, dl), (origin + 16 * 60, origin + 24 * 60));
        assert_eq!(t.clock(open + 30, dl, false), Clock(0), "the evening before is 00:00");
        assert_eq!(t.clock(origin + 11 * 60 + 15, dl, false), Clock::hm(8, 15));
        assert_eq!(t.clock(mid, dl, true), Clock::hm(13, 1));
        assert_eq!(t.clock(dl, dl, true), Clock::DEADLINE);
        assert_eq!(t.say(dl), "21:00 по часам игры (21:24:00 по московскому времени)");
        // A 3-minute day: a game minute is an eighth of a second, so times round up.
        let s = Schedule { day_minutes: Some(3), ..Schedule::default() };
        let t = s.check().unwrap().anchored(origin + 1);
        let open = t.next_open(origin + 1);
        let (mid, dl) = t.day_after_opening(open);
        assert!(open > origin + 1 && mid > open && dl > mid && dl - open <= 180, "{open} {mid} {dl}");
        assert_eq!(t.clock(dl, dl, true), Clock::DEADLINE);
        assert_eq!(t.grace(), 1);
    }

    /// O-CLOCK-1, issue 32: on a 5-minute day a real second is 4 min 48 s of the game's, so
    /// the real second of 21:00 ends at 21:04:48 of the game's clock; the deadline is still
    /// said as «21:00 по часам игры», whatever the moment the game was created, and 13:00
    /// and 22:00 likewise. A second that holds no scheduled moment says its own game time.
    #[test]
    fn a_fast_days_moments_are_said_as_scheduled() {
        let s = Schedule { day_minutes: Some(5), ..Schedule::default() };
        for created in [msk("2026-12-01T14:37:21"), msk("2026-12-01T14:37:22"), msk("2026-12-01T21:59:59")] {
            let t = s.check().unwrap().anchored(created);
            let open = t.next_open(created);
            let (mid, dl) = t.day_after_opening(open);
            let said = |x: i64| t.say(x).split(" по часам игры").next().unwrap().to_string();
            assert_eq!(
                (said(open), said(mid), said(dl)),
                ("22:00".into(), "13:00".into(), "21:00".into()),
                "{created}"
            );
            assert_ne!(said(dl + 1), "21:00", "the next second is later on the game's clock");
        }
    }

    #[test]
    fn a_fast_day_out_of_bounds_is_named() {
        for m in [0, 2, 721] {
            let s = Schedule { day_minutes: Some(m), ..Schedule::default() };
            let e = s.check().unwrap_err();
            assert!(e.contains("schedule.day_minutes") && e.contains(&m.to_string()), "{e}");
        }
    }

    #[test]
    fn bad_schedules_are_named() {
        let s = Schedule { tz: "Mars/Olympus".into(), ..Schedule::default() };
        assert!(s.check().unwrap_err().contains("Mars/Olympus"));
        let s = Schedule { midday: "25:00".into(), ..Schedule::default() };
        assert!(s.check().unwrap_err().contains("25:00"));
    }
}
