//! The readers' errors said in the host's words (issue 29, point 6). The TOML and JSON
//! readers speak English («invalid type: string "2024", expected u64», «invalid table
//! header», «trailing comma»); every message here is a Russian sentence that names the
//! line, what is wrong there and what to write instead. The English text stays for
//! `--lang en`.

use crate::error::GameFileError;
use crate::name::nearest;

/// The keys of a `[[days]]` entry and of an order: where one of them stands in a
/// `[[players]]` entry or at the top level, a `[[days]]` header was lost.
const DAY_KEYS: &[&str] = &["event", "chosen", "tie_break", "deal", "orders"];
const RULES_KEYS: &[&str] = &["tie", "parity", "max_days", "no_repeat", "events"];
const PLAYER_KEYS: &[&str] = &["name", "role", "item", "gender", "forms"];
const ORDER_KEYS: &[&str] = &["by", "act", "target", "targets", "from", "item", "text", "answer", "reason", "at"];

/// A TOML reader's error: its message and the line and key of its span.
pub(crate) fn toml_error(text: &str, e: &toml::de::Error) -> GameFileError {
    let start = e.span().map(|s| s.start);
    let line = start.map(|s| crate::locate::line_of(&crate::locate::line_starts(text), s));
    let key = start.and_then(|s| key_before(text, s));
    reader_error(e.message(), line, key.as_deref(), "TOML")
}

/// A JSON reader's error: its message (without serde_json's « at line … column …») and
/// the line and key where it stopped.
pub(crate) fn json_error(text: &str, e: &serde_json::Error) -> GameFileError {
    let line = (e.line() > 0).then_some(e.line());
    let msg = e.to_string();
    let msg = msg.rsplit_once(" at line ").map_or(msg.as_str(), |(m, _)| m);
    let key = line.and_then(|l| {
        let row = text.lines().nth(l - 1)?;
        json_key_before(row.get(..e.column().min(row.len()))?)
    });
    reader_error(msg, line, key.as_deref(), "JSON")
}

/// The key of a `key = value` whose value starts at `offset`: `seed` in `seed = "2024"`.
fn key_before(text: &str, offset: usize) -> Option<String> {
    let before = text.get(..offset)?;
    let row = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
    let row = row.trim_end().strip_suffix('=')?.trim_end().trim_end_matches(['"', '\'']);
    last_word(row)
}

/// The key of the last `"key": value` of a JSON line up to where the reader stopped.
fn json_key_before(row: &str) -> Option<String> {
    let (before, _) = row.rsplit_once(':')?;
    last_word(before.trim_end().strip_suffix('"')?)
}

fn last_word(s: &str) -> Option<String> {
    let word: Vec<char> = s.chars().rev().take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '-')).collect();
    (!word.is_empty()).then(|| word.into_iter().rev().collect())
}

/// A message the reader gives (`message`, in English, at `line`, about `key` when it is
/// known) turned into ours.
fn reader_error(message: &str, line: Option<usize>, key: Option<&str>, format: &str) -> GameFileError {
    let at_ru = line.map(|l| format!("строка {l}: ")).unwrap_or_default();
    let at_en = line.map(|l| format!("line {l}: ")).unwrap_or_default();
    let message = shorten(message.trim());
    let en = format!("{at_en}not a valid {format} game file: {message}");
    let ru = |text: String| GameFileError::new(line, format!("{at_ru}{text}"), en.clone());
    if let Some(rest) = message.strip_prefix("unknown field `") {
        let (key, rest) = rest.split_once('`').unwrap_or((rest, ""));
        let expected: Vec<&str> = rest.split('`').skip(1).step_by(2).collect();
        let (ru, en) = unknown_key(key, &expected, line);
        return GameFileError::new(line, ru, en);
    }
    // The TOML reader's message: «invalid LABEL», «expected …», and a cause, a line each.
    let mut label = None;
    let mut expected = None;
    let mut cause = None;
    for row in message.lines() {
        if let Some(l) = row.strip_prefix("invalid ").filter(|l| !l.contains(':') && !l.starts_with("type")) {
            label = Some(l);
        } else if let Some(x) = row.strip_prefix("expected ") {
            expected = Some(x);
        } else {
            cause = Some(row);
        }
    }
    let cause = cause.unwrap_or("");
    if let Some(rest) = cause.strip_prefix("duplicate key `").or_else(|| cause.strip_prefix("duplicate field `")) {
        let dup = rest.split('`').next().unwrap_or(rest);
        if label == Some("table header") {
            return ru(format!(
                "таблица [{dup}] уже есть в файле: заголовок [{dup}] пишется один раз, а у списков — игроков и \
                 дней — в двойных скобках перед каждой записью: [[players]], [[days]]"
            ));
        }
        let (hint_ru, hint_en) = if DAY_KEYS.contains(&dup) {
            (
                " — похоже, между двумя днями пропущен заголовок [[days]]",
                " — a [[days]] header between two days seems to be missing",
            )
        } else {
            (": оставьте одно из двух значений", "")
        };
        return GameFileError::new(
            line,
            format!("{at_ru}ключ `{dup}` повторяется{hint_ru}"),
            format!("{at_en}the key `{dup}` is repeated{hint_en}"),
        );
    }
    if let Some(rest) = cause.strip_prefix("missing field `") {
        let missing = rest.split('`').next().unwrap_or(rest);
        return GameFileError::new(
            line,
            format!("{at_ru}не хватает ключа `{missing}`: допишите его ({})", example(missing)),
            format!("{at_en}the key `{missing}` is missing"),
        );
    }
    if let Some(rest) = cause.strip_prefix("invalid type: ") {
        return ru(wrong_kind(rest, key, format));
    }
    if let Some(rest) = cause.strip_prefix("invalid value: ") {
        return ru(wrong_value(rest, key));
    }
    if let Some(rest) = cause.strip_prefix("invalid length ") {
        let (n, exp) = rest.split_once(", expected ").unwrap_or((rest, ""));
        let of = key.map(|k| format!(" `{k}`")).unwrap_or_default();
        return ru(format!("в списке{of} {n} {}, а {}", elements(n), expected_ru(exp)));
    }
    if cause.starts_with("data did not match any variant of untagged enum") {
        return ru(format!(
            "`{}` — это одно имя в кавычках («tie_break = \"Боря\"») или список имён («tie_break = [\"Боря\", \
             \"Вика\"]»)",
            key.unwrap_or("tie_break")
        ));
    }
    ru(syntax(&message, label, expected, cause, format))
}

/// What is wrong with the text as TOML or JSON, and what to write.
fn syntax(message: &str, label: Option<&str>, expected: Option<&str>, cause: &str, format: &str) -> String {
    let nested = "слишком глубоко вложенные скобки: в файле игры списки и таблицы вложены не глубже трёх \
                  уровней — проверьте, что каждая открытая скобка [ или { закрыта";
    let escape = "неверная обратная косая черта \\ в тексте: внутри \"…\" пишите \\\\ для самой черты и \\\" \
                  для кавычки — или возьмите текст в одинарные кавычки '…'";
    // serde_json's message is one line, kept whole; the TOML reader's cause is its last line.
    let whole = if message.contains('\n') { cause } else { message };
    match whole {
        "recursion limit exceeded" => return nested.to_string(),
        "value is out of range" => {
            return "число или время вне допустимого: часы от 00 до 23, минуты от 00 до 59, числа — не \
                    длиннее 19 цифр"
                .to_string()
        }
        c if c.starts_with("dotted key") => {
            return "ключ с точкой продолжает ключ, у которого уже есть значение: уберите точку из ключа или \
                    одно из значений"
                .to_string()
        }
        // serde_json's syntax errors.
        "EOF while parsing a list" => return "файл обрывается внутри списка: не хватает закрывающей скобки ]".into(),
        "EOF while parsing an object" => {
            return "файл обрывается внутри таблицы: не хватает закрывающей скобки }".into()
        }
        "EOF while parsing a string" => return "файл обрывается внутри текста в кавычках: закройте кавычку \"".into(),
        "EOF while parsing a value" => return "файл обрывается там, где нужно значение: допишите его".into(),
        "expected `:`" => return "за ключом нет двоеточия: пишите \"ключ\": значение".into(),
        "expected `,` or `]`" => return "в списке не хватает запятой между элементами или закрывающей скобки ]".into(),
        "expected `,` or `}`" => return "в таблице не хватает запятой между ключами или закрывающей скобки }".into(),
        "expected ident" => {
            return "неизвестное слово: без кавычек в JSON пишутся только true, false, null и числа, текст — в \
                    двойных кавычках"
                .into()
        }
        "expected value" => {
            return "здесь нужно значение: текст в двойных кавычках, число, true или false, список [ … ] или \
                    таблица { … }"
                .into()
        }
        "expected `\"`" | "key must be a string" => return "ключ пишется в двойных кавычках: \"name\": \"Аня\"".into(),
        "invalid escape"
        | "unexpected end of hex escape"
        | "lone leading surrogate in hex escape"
        | "invalid unicode code point" => return escape.to_string(),
        "invalid number" | "number out of range" => {
            return "неверное число: числа пишутся цифрами, без кавычек и пробелов, не длиннее 19 цифр".into()
        }
        "trailing comma" => return "лишняя запятая перед закрывающей скобкой: уберите её".into(),
        "trailing characters" => {
            return "после конца файла игры ещё есть текст: весь файл — одна таблица { … }, уберите лишнее".into()
        }
        c if c.starts_with("control character") => {
            return "в тексте в кавычках — перенос строки или управляющий символ: текст пишется на одной \
                    строке (перенос — \\n)"
                .into()
        }
        _ => {}
    }
    let what = match label {
        Some("key") => "неверный ключ: ключ пишется латиницей без пробелов, а за ним — знак = и значение \
                        (name = \"Аня\")"
            .to_string(),
        Some("table header") => "неверный заголовок таблицы: заголовки пишутся [rules], [[players]] или \
                                 [[days]], на строке после них — ничего, кроме комментария #"
            .to_string(),
        Some("array") => {
            "неверный список: элементы списка [ … ] разделяются запятыми, список закрывается скобкой ]".to_string()
        }
        Some("inline table") => "неверная таблица в фигурных скобках: она пишется на одной строке, ключи — \
                                 через запятую, в конце — } ({ by = \"Аня\", act = \"vote\", target = \"Боря\" })"
            .to_string(),
        Some(l) if l.contains("escape") || l.contains("hex code") => escape.to_string(),
        Some(l) if l.contains("string") => "не закрыта кавычка или текст без кавычек: текст пишется в двойных \
                                            кавычках на одной строке (name = \"Аня\"), кавычка внутри текста — \\\""
            .to_string(),
        Some(l) if l.contains("integer") || l.contains("number") => {
            "неверное число: числа пишутся цифрами без кавычек (seed = 7)".to_string()
        }
        Some(l) if l.contains("time") => {
            "неверное время: время пишется в кавычках \"ЧЧ:ММ\" (at = \"13:05\")".to_string()
        }
        _ => match expected {
            Some(x) if x.contains("newline") || x.contains("`#`") => "после значения на строке лишний текст: на \
                                                                      одной строке — один ключ = значение (или \
                                                                      комментарий после #)"
                .to_string(),
            Some(x) if x.contains("`=`") => {
                "за ключом нет знака =: пишите ключ = значение, ключи — латиницей (name = \"Аня\")".to_string()
            }
            _ => {
                let f = if format == "JSON" { "JSON" } else { "TOML" };
                format!("текст в этом месте не читается как {f}: проверьте кавычки, скобки, запятые и знаки =")
            }
        },
    };
    what
}

/// «invalid type: UNEXPECTED, expected EXPECTED» as a Russian sentence.
fn wrong_kind(rest: &str, key: Option<&str>, format: &str) -> String {
    // How `key = value` is written in the file's format.
    let set = |k: &str, v: &str| if format == "JSON" { format!("\"{k}\": {v}") } else { format!("{k} = {v}") };
    let (unexp, exp) = rest.rsplit_once(", expected ").unwrap_or((rest, ""));
    let (got, value) = unexpected_ru(unexp);
    let want = expected_ru(exp);
    let who = key.map(|k| format!("`{k}` — ")).unwrap_or_default();
    let quoted = unexp.starts_with("string");
    let fix = match (key, value.as_deref()) {
        (Some("players"), _) => ": игроки — это список записей с ключами name и role ([[players]] в TOML)".to_string(),
        (Some("days"), _) => ": дни — это список записей, по одной на день ([[days]] в TOML)".to_string(),
        (Some(k), Some(v)) if exp == "a boolean" => {
            let yes = !matches!(crate::name::fold_id(v).as_str(), "no" | "нет" | "false" | "0");
            format!(" ({})", set(k, if yes { "true" } else { "false" }))
        }
        (Some(k), Some(v)) if quoted && exp.starts_with('f') && v.trim().parse::<f64>().is_ok() => {
            format!(": уберите кавычки ({})", set(k, v.trim()))
        }
        (Some(k), Some(v)) if quoted && (exp.starts_with('u') || exp.starts_with('i')) => {
            match v.trim().parse::<u64>() {
                Ok(n) => format!(": уберите кавычки ({})", set(k, &n.to_string())),
                Err(_) => format!(": напишите число цифрами ({})", set(k, "1")),
            }
        }
        (Some(k), Some(_)) if exp.starts_with('f') => format!(": напишите число цифрами ({})", set(k, "1")),
        (Some(k), Some(v)) if !quoted && exp.contains("string") => {
            format!(": возьмите в кавычки ({})", set(k, &format!("\"{v}\"")))
        }
        (Some(k), Some(v)) if exp.contains("sequence") => {
            let v = if quoted { format!("\"{v}\"") } else { v.to_string() };
            format!(": запишите списком ({})", set(k, &format!("[{v}]")))
        }
        _ => String::new(),
    };
    format!("{who}{got}, а {want}{fix}")
}

/// «invalid value: UNEXPECTED, expected EXPECTED»: the right kind, but out of range.
fn wrong_value(rest: &str, key: Option<&str>) -> String {
    let (unexp, exp) = rest.rsplit_once(", expected ").unwrap_or((rest, ""));
    let (got, _) = unexpected_ru(unexp);
    let who = key.map(|k| format!("`{k}` — ")).unwrap_or_default();
    let want = match exp {
        "u64" => "нужно целое число от 0 до 18446744073709551615".to_string(),
        "u32" => "нужно целое число от 0 до 4294967295".to_string(),
        "usize" => "нужно целое число от 0".to_string(),
        other => expected_ru(other),
    };
    format!("{who}{got} не подходит: {want}")
}

/// serde's «unexpected» in Russian, and the value as written where it has one.
fn unexpected_ru(unexp: &str) -> (String, Option<String>) {
    let inner = |s: &str| s.split_once('`').and_then(|(_, r)| r.rsplit_once('`')).map(|(v, _)| v.to_string());
    if let Some(s) = unexp.strip_prefix("string ") {
        let v = serde_json::from_str::<String>(s).unwrap_or_else(|_| s.trim_matches('"').to_string());
        let shown: String = v.chars().take(40).collect();
        return (format!("текст в кавычках \"{shown}\""), Some(shown));
    }
    if unexp.starts_with("integer") || unexp.starts_with("floating point") {
        let v = inner(unexp);
        return (format!("число {}", v.clone().unwrap_or_default()).trim_end().to_string(), v);
    }
    if unexp.starts_with("boolean") {
        let v = inner(unexp);
        return (format!("{} (да/нет)", v.clone().unwrap_or_default()), v);
    }
    let got = match unexp {
        "sequence" => "список [ … ]",
        "map" => "таблица",
        "character" => "буква",
        _ => "значение другого вида",
    };
    (got.to_string(), None)
}

/// What serde expected, in Russian with its verb: «нужно целое число без кавычек».
fn expected_ru(exp: &str) -> String {
    let s = match exp.trim() {
        "u8" | "u16" | "u32" | "u64" | "usize" | "i8" | "i16" | "i32" | "i64" | "isize" => {
            "нужно целое число без кавычек"
        }
        "f32" | "f64" => "нужно число без кавычек",
        "a boolean" => "нужно true или false без кавычек",
        "a string" | "a borrowed string" | "string" => "нужен текст в кавычках",
        "a sequence" => "нужен список в квадратных скобках [ … ]",
        "a map" => "нужна таблица",
        "a character" => "нужна одна буква в кавычках",
        e if e.starts_with("struct ") => "нужна таблица с ключами { … }",
        e if e.starts_with("a sequence of") || e.starts_with("an array") => "нужен список",
        _ => "нужно значение другого вида",
    };
    s.to_string()
}

fn elements(n: &str) -> &'static str {
    crate::plural::form(n.parse().unwrap_or(0), "элемент", "элемента", "элементов")
}

/// How a missing key is written, for «допишите его».
fn example(key: &str) -> &'static str {
    match key {
        "name" => "name = \"Аня\"",
        "role" => "role = \"seer\" или role = \"Ясновидящая\"",
        "by" => "by = \"Аня\"",
        "act" => "act = \"vote\"",
        _ => "ключ = значение",
    }
}

fn shorten(s: &str) -> String {
    // A garbage file may have one huge line: keep messages readable.
    let mut out = String::new();
    for line in s.lines() {
        let mut l: String = line.chars().take(160).collect();
        if line.chars().count() > 160 {
            l.push('…');
        }
        out.push_str(&l);
        out.push('\n');
        if out.len() > 2000 {
            out.push_str("…\n");
            break;
        }
    }
    out.trim_end().to_string()
}

/// «неизвестный ключ `tie_brake` (строка 14) — может быть, `tie_break`?», or, for a day's
/// key in a player's entry or at the top level, the lost `[[days]]` header.
fn unknown_key(key: &str, expected: &[&str], line: Option<usize>) -> (String, String) {
    let (l_ru, l_en) = match line {
        Some(l) => (format!(" (строка {l})"), format!(" (line {l})")),
        None => (String::new(), String::new()),
    };
    let in_player = expected.contains(&"role");
    let at_top = expected.contains(&"players");
    if (in_player || at_top) && (DAY_KEYS.contains(&key) || (in_player && ORDER_KEYS.contains(&key))) {
        let (w_ru, w_en) = if in_player {
            ("в записи игрока [[players]]", "inside a [[players]] entry")
        } else {
            ("до первого [[players]]", "before the first [[players]]")
        };
        return (
            format!(
                "ключ дня `{key}`{l_ru} стоит {w_ru}: похоже, перед ним пропущен заголовок [[days]] \
                 (без него приказы достались бы игроку, а все дни сдвинулись бы)"
            ),
            format!(
                "the day's key `{key}`{l_en} stands {w_en}: a [[days]] header before it seems to be missing \
                 (without it the orders would go to a player and every day would shift)"
            ),
        );
    }
    if let Some(n) = nearest(key, expected.iter().copied()) {
        return (
            format!("неизвестный ключ `{key}`{l_ru} — может быть, `{n}`?"),
            format!("unknown key `{key}`{l_en} — did you mean `{n}`?"),
        );
    }
    // A key of another table, in the wrong place or misspelt: say where it belongs.
    let elsewhere = [("[[days]]", DAY_KEYS), ("[rules]", RULES_KEYS), ("[[players]]", PLAYER_KEYS)];
    let other = elsewhere.iter().find_map(|(table, keys)| nearest(key, keys.iter().copied()).map(|n| (table, n)));
    match other {
        Some((table, n)) => (
            format!("неизвестный ключ `{key}`{l_ru} — может быть, `{n}`? Это ключ таблицы {table}"),
            format!("unknown key `{key}`{l_en} — did you mean `{n}`? That is a key of {table}"),
        ),
        None => {
            let known = expected.join(", ");
            (
                format!("неизвестный ключ `{key}`{l_ru}; здесь бывают: {known}"),
                format!("unknown key `{key}`{l_en}; the keys here are: {known}"),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Game, Lang};

    const PLAYER: &str = "[[players]]\nname = \"Аня\"\nrole = \"seer\"\n";

    fn ru(text: &str) -> String {
        Game::parse(text).map(|_| ()).unwrap_err().to_string()
    }

    /// Issue 29, point 6: every message of the TOML reader is a Russian sentence naming
    /// the line and what to write — none of serde's or toml's English is left in it.
    #[test]
    fn issue_29_point_6_toml_errors_are_russian_sentences_with_the_line() {
        let p = PLAYER;
        for (text, want) in [
            (
                format!("seed = \"2024\"\n{p}"),
                "строка 1: `seed` — текст в кавычках \"2024\", а нужно целое число без кавычек: уберите кавычки (seed = 2024)",
            ),
            (
                format!("seed = -1\n{p}"),
                "строка 1: `seed` — число -1 не подходит: нужно целое число от 0 до 18446744073709551615",
            ),
            (
                format!("{p}[[days]]\n[days]\n"),
                "строка 5: таблица [days] уже есть в файле: заголовок [days] пишется один раз, а у списков — игроков и \
                 дней — в двойных скобках перед каждой записью: [[players]], [[days]]",
            ),
            (
                format!("[rules\n{p}"),
                "строка 1: неверный заголовок таблицы: заголовки пишутся [rules], [[players]] или [[days]], на строке \
                 после них — ничего, кроме комментария #",
            ),
            (
                format!("title = x\n{p}"),
                "строка 1: не закрыта кавычка или текст без кавычек: текст пишется в двойных кавычках на одной строке \
                 (name = \"Аня\"), кавычка внутри текста — \\\"",
            ),
            (
                format!("имя = \"Аня\"\n{p}"),
                "строка 1: неверный ключ: ключ пишется латиницей без пробелов, а за ним — знак = и значение (name = \
                 \"Аня\")",
            ),
            (
                format!("a = {}\n{p}", "[".repeat(200)),
                "строка 1: слишком глубоко вложенные скобки: в файле игры списки и таблицы вложены не глубже трёх \
                 уровней — проверьте, что каждая открытая скобка [ или { закрыта",
            ),
            (
                format!("title = \"x\" y\n{p}"),
                "строка 1: после значения на строке лишний текст: на одной строке — один ключ = значение (или \
                 комментарий после #)",
            ),
            (
                format!("title\n{p}"),
                "строка 1: за ключом нет знака =: пишите ключ = значение, ключи — латиницей (name = \"Аня\")",
            ),
            (
                format!("deck = [\"trap\" \"fang\"]\n{p}"),
                "строка 1: неверный список: элементы списка [ … ] разделяются запятыми, список закрывается скобкой ]",
            ),
            (
                format!("{p}[[days]]\norders = [{{ by = \"Аня\" act = \"vote\" }}]\n"),
                "строка 5: неверная таблица в фигурных скобках: она пишется на одной строке, ключи — через запятую, в \
                 конце — } ({ by = \"Аня\", act = \"vote\", target = \"Боря\" })",
            ),
            (
                format!("title = \"a\\q\"\n{p}"),
                "строка 1: неверная обратная косая черта \\ в тексте: внутри \"…\" пишите \\\\ для самой черты и \\\" \
                 для кавычки — или возьмите текст в одинарные кавычки '…'",
            ),
            (
                format!("{p}[[days]]\ntie_break = 5\n"),
                "строка 5: `tie_break` — это одно имя в кавычках («tie_break = \"Боря\"») или список имён («tie_break \
                 = [\"Боря\", \"Вика\"]»)",
            ),
            (
                format!("shuffle = \"yes\"\n{p}"),
                "строка 1: `shuffle` — текст в кавычках \"yes\", а нужно true или false без кавычек (shuffle = true)",
            ),
            (
                format!("{p}item = 5\n"),
                "строка 4: `item` — число 5, а нужен текст в кавычках: возьмите в кавычки (item = \"5\")",
            ),
            (
                format!("deck = \"trap\"\n{p}"),
                "строка 1: `deck` — текст в кавычках \"trap\", а нужен список в квадратных скобках [ … ]: запишите \
                 списком (deck = [\"trap\"])",
            ),
            (
                format!("[rules]\nevents = {{ fear = \"x\" }}\n{p}"),
                "строка 2: `fear` — текст в кавычках \"x\", а нужно число без кавычек: напишите число цифрами (fear = 1)",
            ),
            ("[[players]]\nrole = \"seer\"\n".to_string(), "строка 1: не хватает ключа `name`: допишите его (name = \"Аня\")"),
            (format!("seed = 1\nseed = 2\n{p}"), "строка 2: ключ `seed` повторяется: оставьте одно из двух значений"),
        ] {
            assert_eq!(ru(&text), want, "{text}");
        }
        // English keeps the reader's own words, with the line.
        let e = Game::parse(&format!("seed = \"2024\"\n{p}")).unwrap_err();
        assert_eq!(
            e.text(Lang::English),
            "line 1: not a valid TOML game file: invalid type: string \"2024\", expected u64"
        );
    }

    /// Issue 29, point 6: the JSON reader's messages too.
    #[test]
    fn issue_29_point_6_json_errors_are_russian_sentences_with_the_line() {
        for (text, want) in [
            (
                "{\"seed\": \"2024\", \"players\": []}",
                "строка 1: `seed` — текст в кавычках \"2024\", а нужно целое число без кавычек: уберите кавычки \
                 (\"seed\": 2024)",
            ),
            (
                "{\"players\": [}",
                "строка 1: здесь нужно значение: текст в двойных кавычках, число, true или false, список [ … ] или \
                 таблица { … }",
            ),
            (
                "{\"players\": [] } x",
                "строка 1: после конца файла игры ещё есть текст: весь файл — одна таблица { … }, уберите лишнее",
            ),
            (
                "{\"players\": [{\"name\": \"Аня\", \"role\": \"seer\"},]}",
                "строка 1: лишняя запятая перед закрывающей скобкой: уберите её",
            ),
            ("{\"players\" []}", "строка 1: за ключом нет двоеточия: пишите \"ключ\": значение"),
            ("{players: []}", "строка 1: ключ пишется в двойных кавычках: \"name\": \"Аня\""),
            ("{\"players\": [\n", "строка 2: файл обрывается внутри списка: не хватает закрывающей скобки ]"),
            ("{\"title\": \"x", "строка 1: файл обрывается внутри текста в кавычках: закройте кавычку \""),
            (
                "{\"seed\": tru}",
                "строка 1: неизвестное слово: без кавычек в JSON пишутся только true, false, null и числа, текст — в \
                 двойных кавычках",
            ),
            (
                "{\"players\": [{\"name\": \"А\nня\"}]}",
                "строка 2: в тексте в кавычках — перенос строки или управляющий символ: текст пишется на одной строке \
                 (перенос — \\n)",
            ),
            (
                &format!(
                    "{{\"days\": [{{\"orders\": [{{\"by\": \"Аня\", \"act\": \"vote\", \"at\": {}",
                    "[".repeat(200)
                ),
                "строка 1: слишком глубоко вложенные скобки: в файле игры списки и таблицы вложены не глубже трёх \
                 уровней — проверьте, что каждая открытая скобка [ или { закрыта",
            ),
        ] {
            assert_eq!(ru(text), want, "{text}");
        }
    }

    /// Issue 29, point 6: a file saved in Windows-1251 is told so, with what to do.
    #[test]
    fn issue_29_point_6_a_cp1251_file_is_asked_to_be_saved_in_utf8() {
        let mut bytes = b"title = \"x\"\n[[players]]\nname = \"".to_vec();
        bytes.extend([0xC0, 0xED, 0xFF]); // «Аня» in Windows-1251
        bytes.extend(b"\"\nrole = \"seer\"\n");
        let e = Game::parse_bytes(&bytes).map(|_| ()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "строка 3: файл не в кодировке UTF-8, а, похоже, в Windows-1251 (cp1251): сохраните файл в UTF-8 (в \
             Блокноте — «Сохранить как…», кодировка UTF-8) и запустите снова"
        );
    }
}
