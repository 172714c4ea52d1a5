//! The command line's own words in Russian (issue 29, point 7): every command's help,
//! clap's headings («Использование:», «Команды:», «Параметры:»), the help and version
//! flags, the value names, the possible and default values. The English is the derive's
//! doc comments, untouched; [`command`] builds the one or the other at start.

use clap::builder::{PossibleValue, TypedValueParser};
use clap::{Arg, ArgAction, Command, CommandFactory};
use ostrov_engine::Lang;

use crate::Cli;

/// clap's help page with the Russian heading of the usage line.
const TEMPLATE: &str = "{before-help}{about-with-newline}\nИспользование: {usage}\n\n{all-args}{after-help}";
const OPTIONS: &str = "Параметры";
const ARGUMENTS: &str = "Аргументы";

/// One command's Russian: its short description (the list of commands, and its own
/// help), and the longer text its `--help` shows when it has one.
struct CommandRu {
    name: &'static str,
    about: &'static str,
    long: Option<&'static str>,
}

/// One argument's Russian: the command it belongs to ("" for the top level and the
/// global ones), its id, the name of its value (or "" for a flag), and its help.
struct ArgRu {
    command: &'static str,
    id: &'static str,
    value: &'static str,
    help: &'static str,
}

const fn arg(command: &'static str, id: &'static str, value: &'static str, help: &'static str) -> ArgRu {
    ArgRu { command, id, value, help }
}

const COMMANDS: &[CommandRu] = &[
    CommandRu {
        name: "",
        about: "Ostrov — ведущий «Острова страха»: разбирает файл игры, печатает газеты, держит игровой сервер.",
        long: None,
    },
    CommandRu {
        name: "resolve",
        about: "Разобрать файл игры: газеты всех дней (что видят игроки), JSON-отчёт ведущего (--json), \
                личные сообщения игроков (--inbox) или одну газету дня (--stage).",
        long: None,
    },
    CommandRu {
        name: "new",
        about: "Начать новую игру: раздать игрокам роли и вещи по зерну и записать файл игры (TOML), который \
                ведущий дальше заполняет днями и приказами.",
        long: Some(
            "Начать новую игру: раздать игрокам роли и вещи по зерну и записать файл игры (TOML), который
ведущий дальше заполняет днями и приказами.

Примеры:
  ostrov new --players \"Аня,Боря,Вика,Гена,Дима,Женя,Зоя\" --seed 42 -o game.toml
  ostrov new --players-file names.txt --setup \"werewolf=2,seer,nurse,witch\" --shuffle

Роли, не названные в --setup, — пассажиры. Без --setup берётся рекомендуемый расклад
для этого числа игроков (docs/SETUPS.md). Игроки остаются в данном порядке, если
--shuffle не просит случайного (заданного зерном). Роль и вещь каждого игрока
записываются в файл, чтобы ведущий мог разослать их игрокам.",
        ),
    },
    CommandRu {
        name: "next",
        about: "Сказать, что принесёт день после последнего дня файла: событие (по зерну), избранного в «Выбери \
                меня!», новые вещи после Цунами — объявление 22:00, готовое к публикации. Жребии — те же, что \
                вытянет ostrov resolve, когда ведущий допишет этот день, не задав их сам.",
        long: None,
    },
    CommandRu {
        name: "simulate",
        about: "Сыграть расклад много раз ботами и сказать шансы каждой стороны.",
        long: Some(
            "Сыграть расклад много раз ботами и сказать шансы каждой стороны.

Без --setup и --file играется рекомендуемый расклад для этого числа игроков
разумными ботами, с которыми искалась рекомендуемая таблица (docs/SETUPS.md).
Первые строки говорят, какой расклад, колода и боты сыграны.

Примеры:
  ostrov simulate --players 15 --games 100000 --bots random
  ostrov simulate --players 12 --setup \"werewolf=3,seer,nurse\" --bots sensible --json
  ostrov simulate --file game.toml --games 20000
  ostrov simulate --db ostrov.db --games 3000   # расклады сервера против симулятора",
        ),
    },
    CommandRu {
        name: "suggest",
        about: "Найти самые равные расклады (роли и колоду) для N игроков.",
        long: Some(
            "Найти самые равные расклады (роли и колоду) для N игроков.

Примеры:
  ostrov suggest --players 14
  ostrov suggest --players 14 --games 5000 --bots random --top 10
  ostrov suggest --players 12 --deck both     # с колодой по умолчанию и без вещей
  ostrov suggest --table > crates/ostrov-engine/src/recommended.txt

Кандидаты: от N/8 до N/3 оборотней (не меньше одного), Полукровка (от 10 игроков),
Хомяк (от 12) и первые k мирных ролей из Ясновидящего, Медсестры, Колдуньи,
Сексманьяка, Лунатика, Авторитета, Неприкасаемого; остальные — пассажиры.
Перекос = |P(мирные) − P(оборотни)| + P(хомяк) + P(ничья), чем меньше, тем лучше.
Расклад «ровный», если перекос не больше 10 пунктов (каждая сторона в пределах
5 пунктов от 50%). Сначала ровные, среди них — с большим числом мирных ролей,
потом по перекосу; остальные — по перекосу. Каждый кандидат проходит отбор в
--games партий; первые --finalists и два самых ровных играются ещё раз по
--final-games партий с новым зерном и ранжируются по второму кругу.
Каждый расклад печатается так, как его принимает ostrov new, с итогом в одну строку.",
        ),
    },
    CommandRu {
        name: "serve",
        about: "Запустить игровой сервер по HTTP: JSON API под /api/ (crates/ostrov-server/API.md) над встроенной \
                базой SQLite (создаётся при первом запуске) или над базой PostgreSQL, общей для нескольких узлов.",
        long: None,
    },
    CommandRu {
        name: "backup",
        about: "Сделать резервную копию базы сервера, не останавливая его: файл SQLite согласованно копируется в \
                новый файл КОПИЯ (затем открывается и пересчитывается), база PostgreSQL выгружается через pg_dump \
                (формат custom, для pg_restore). Файла КОПИЯ ещё не должно быть.",
        long: None,
    },
    CommandRu {
        name: "demo",
        about: "Запустить практический сервер на этой машине: кто откроет его страницу, тот сразу входит гостем и \
                садится за новую игру с шестью ботами — рекомендуемый расклад, быстрые часы.",
        long: Some(
            "Запустить практический сервер на этой машине: кто откроет его страницу, тот сразу входит гостем и
садится за новую игру с шестью ботами — рекомендуемый расклад, быстрые часы.

Пример:
  ostrov demo
  ostrov demo --day-minutes 3 --bind 127.0.0.1:8081

Сервер печатает адрес, который нужно открыть в браузере (по умолчанию http://127.0.0.1:8080/).
Игровой день длится --day-minutes минут: его 13:00 и 21:00 наступают в том же порядке, что и
в настоящей игре. Игра гостя — только его: её не видят и к ней не присоединяются другие.
Гости есть только здесь: у ostrov serve их нет.",
        ),
    },
    CommandRu {
        name: "help", about: "Показать эту справку или справку команды.", long: None
    },
];

const ARGS: &[ArgRu] = &[
    arg(
        "",
        "lang",
        "ЯЗЫК",
        "Язык сообщений и надписей: ru (по умолчанию) или en. Без него английский выбирает локаль (LC_ALL, \
         LC_MESSAGES или LANG), которая начинается с en.",
    ),
    arg("", "help", "", "Показать справку."),
    arg("", "version", "", "Показать версию."),
    arg("help", "subcommand", "КОМАНДА", "Команда, справку которой показать."),
    // resolve
    arg("resolve", "file", "ФАЙЛ", "Файл игры (TOML или JSON, см. docs/GAME_FILE.md)."),
    arg("resolve", "json", "", "Напечатать JSON-отчёт ведущего (docs/GAME_FILE.md) и ничего больше."),
    arg(
        "resolve",
        "format",
        "ФОРМАТ",
        "Формат газет: markdown (CommonMark, по умолчанию), gfm (с таблицами), bbcode (для форумов), html \
         (целая страница), html-fragment (для вставки) или plain (простой текст).",
    ),
    arg(
        "resolve",
        "forum",
        "ФОРУМ",
        "Форум, для которого BBCode: phpbb (по умолчанию: без таблиц и [s]), xenforo или ipb (с [table] и [s]).",
    ),
    arg(
        "resolve",
        "day",
        "N",
        "Напечатать газеты только дня N; 0 — первый пост игры (игроки по порядку с пассивными вещами, правила \
         коротко, событие дня 1).",
    ),
    arg(
        "resolve",
        "inbox",
        "ИМЯ",
        "Напечатать личные сообщения игрока (роль, вещь, проверки, полученные вещи); all — каждого игрока, \
         отдельным блоком с его именем, для рассылки.",
    ),
    arg(
        "resolve",
        "stage",
        "ГАЗЕТА",
        "Напечатать одну газету последнего дня (или дня --day): midday — сводку 13:00 (по приказам, присланным \
         до 13:00), evening — вечернюю газету после разбора 21:00.",
    ),
    // new
    arg("new", "players", "ИМЕНА", "Имена игроков через запятую."),
    arg(
        "new",
        "players_file",
        "ФАЙЛ",
        "Файл с именами игроков, по одному на строке (пустые строки и строки с # пропускаются).",
    ),
    arg(
        "new",
        "setup",
        "РАСКЛАД",
        "Сколько каких ролей, например \"werewolf=3,seer,nurse,witch\" (id или русские названия); остальные — \
         пассажиры.",
    ),
    arg(
        "new",
        "deck",
        "КОЛОДА",
        "Колода вещей, например \"trap,fang,bomb,none\" (по умолчанию — по одной каждой вещи, сколько нужно раз).",
    ),
    arg("new", "seed", "ЗЕРНО", "Зерно всех жребиев (роли, вещи, порядок, события); по умолчанию — случайное."),
    arg("new", "shuffle", "", "Рассадить игроков в случайном порядке (заданном зерном), а не в данном."),
    arg("new", "title", "НАЗВАНИЕ", "Название игры."),
    arg(
        "new",
        "output",
        "ФАЙЛ",
        "Куда записать файл игры (по умолчанию — на стандартный вывод). Существующий файл не перезаписывается. \
         С файлом первый пост игры (Markdown) печатается на стандартный вывод.",
    ),
    // next
    arg("next", "file", "ФАЙЛ", "Файл игры (TOML или JSON, см. docs/GAME_FILE.md)."),
    arg("next", "format", "ФОРМАТ", "Формат: markdown (по умолчанию), gfm, bbcode, html, html-fragment или plain."),
    arg("next", "forum", "ФОРУМ", "Форум, для которого BBCode: phpbb (по умолчанию), xenforo или ipb."),
    // simulate
    arg("simulate", "players", "N", "Число игроков (по умолчанию — из файла игры, иначе 15)."),
    arg(
        "simulate",
        "setup",
        "РАСКЛАД",
        "Сколько каких ролей, например \"werewolf=3,seer,nurse\" (по умолчанию — рекомендуемый расклад).",
    ),
    arg("simulate", "file", "ФАЙЛ_ИГРЫ", "Взять роли, колоду и правила дома из файла игры."),
    arg("simulate", "games", "N", "Число партий."),
    arg(
        "simulate",
        "bots",
        "БОТЫ",
        "Боты: sensible (разумные, с ними искалась рекомендуемая таблица) или random (случайные).",
    ),
    arg("simulate", "seed", "ЗЕРНО", "Начальное зерно; партия i играется с зерном, выведенным из него и i."),
    arg("simulate", "tie", "НИЧЬЯ", "Правило дома tie (ничья на линче): random, none или all."),
    arg("simulate", "parity", "", "Правило дома parity: оборотни побеждают и при равенстве."),
    arg("simulate", "max_days", "N", "Правило дома max_days: после этого дня — ничья."),
    arg("simulate", "no_events", "", "Без событий (вес каждого события 0)."),
    arg("simulate", "no_items", "", "Без вещей (пустая колода)."),
    arg("simulate", "json", "", "Напечатать итог в JSON."),
    arg("simulate", "svg", "ФАЙЛ", "Записать SVG-диаграмму побед сторон по дням."),
    arg(
        "simulate",
        "db",
        "БАЗА",
        "База сервера (файл SQLite или адрес postgres://): для каждого расклада, сыгранного в открытых играх \
         сервера, — число игр и победы сторон с интервалом рядом с предсказанием симулятора (--games партий).",
    ),
    // suggest
    arg("suggest", "players", "N", "Число игроков."),
    arg("suggest", "games", "N", "Партий на кандидата в отборочном круге."),
    arg("suggest", "finalists", "N", "Сколько первых раскладов отбора сыграть ещё раз."),
    arg("suggest", "final_games", "N", "Партий на финалиста (по умолчанию — в 5 раз больше --games)."),
    arg("suggest", "bots", "БОТЫ", "Боты: random (случайные) или sensible (разумные)."),
    arg("suggest", "seed", "ЗЕРНО", "Начальное зерно."),
    arg("suggest", "top", "N", "Сколько раскладов напечатать."),
    arg(
        "suggest",
        "deck",
        "КОЛОДА",
        "Колода: default (по одной каждой вещи, повторяя), none (без вещей), both (каждый расклад с обеими) или \
         id вещей, например \"trap,fang,bomb\".",
    ),
    arg(
        "suggest",
        "table",
        "",
        "Напечатать рекомендуемую таблицу для 3–40 игроков (формат crates/ostrov-engine/src/recommended.txt); с \
         колодой по умолчанию, которую раздают ostrov new и сервер.",
    ),
    // serve
    arg(
        "serve",
        "db",
        "БАЗА",
        "База данных: путь к файлу SQLite или postgres://user@host/dbname (тогда одну базу могут обслуживать \
         сколько угодно узлов).",
    ),
    arg("serve", "bind", "АДРЕС", "Адрес, на котором слушать (порт 0 — любой свободный)."),
    arg(
        "serve",
        "public_url",
        "URL",
        "Адрес, по которому заходят игроки, например https://ostrov.example.org: с https cookie сессии \
         помечается Secure (передаётся только по HTTPS).",
    ),
    arg(
        "serve",
        "trust_proxy",
        "",
        "Доверять обратному прокси перед сервером (nginx, Caddy): адрес клиента — последний в X-Forwarded-For \
         (для ограничений входа и регистрации), а X-Forwarded-Proto: https помечает cookie как Secure. Только \
         за прокси, который эти заголовки ставит.",
    ),
    arg(
        "serve",
        "signups_per_hour",
        "N",
        "Сколько регистраций в час принимать с одного адреса (0 — без ограничения, например для тестового \
         сервера, который регистрирует много игроков с одной машины).",
    ),
    arg(
        "serve",
        "lease_seconds",
        "СЕКУНДЫ",
        "С PostgreSQL: сколько секунд узел владеет игрой, не продлевая аренду. Каждую игру пишет один узел; \
         если он упал, через это время её подхватывает другой (по умолчанию 3).",
    ),
    arg(
        "serve",
        "advertise",
        "АДРЕС",
        "С PostgreSQL: адрес host:порт, по которому другие узлы пересылают этому запросы к его играм (по \
         умолчанию — адрес --bind).",
    ),
    arg("serve", "clock_file", "ФАЙЛ", "Для тестов: читать текущее время (секунды Unix) из этого файла."),
    arg(
        "serve",
        "telegram_api",
        "URL",
        "Адрес Bot API Telegram (по умолчанию https://api.telegram.org). Бот включается, когда задана \
         переменная окружения OSTROV_TELEGRAM_TOKEN; токен в командной строке не принимается.",
    ),
    // demo
    arg(
        "demo",
        "db",
        "БАЗА",
        "База данных: путь к файлу SQLite (создаётся при первом запуске) или postgres://user@host/dbname.",
    ),
    arg("demo", "bind", "АДРЕС", "Адрес, на котором слушать (порт 0 — любой свободный)."),
    arg("demo", "day_minutes", "N", "Сколько минут длится игровой день (от 3 до 720)."),
    arg("demo", "clock_file", "ФАЙЛ", "Для тестов: читать текущее время (секунды Unix) из этого файла."),
    arg(
        "serve",
        "smtp",
        "URL",
        "SMTP-сервер для писем игрокам: smtp://пользователь@почта.example.ru:587 (STARTTLS, если сервер его \
         предлагает) или smtps://…:465. Пароль — только в переменной окружения OSTROV_SMTP_PASSWORD, не в \
         командной строке. Нужны также --mail-from и --public-url.",
    ),
    arg("serve", "mail_from", "АДРЕС", "Адрес отправителя писем (с --smtp), например ostrov@example.ru."),
    arg("serve", "smtp_user", "ПОЛЬЗОВАТЕЛЬ", "Пользователь SMTP, если он не указан в адресе --smtp."),
    // backup
    arg(
        "backup",
        "db",
        "БАЗА",
        "База данных, как её называет ostrov serve --db: файл SQLite или postgres://user@host/dbname.",
    ),
    arg("backup", "out", "КОПИЯ", "Новый файл для копии (существующий не перезаписывается)."),
];

/// The command line in `lang`: the derive's English as it is, or every text in Russian.
pub fn command(lang: Lang) -> Command {
    match lang {
        Lang::English => Cli::command(),
        Lang::Ru => {
            let mut cmd = russian(Cli::command(), "")
                .disable_version_flag(true)
                .arg(Arg::new("version").short('V').long("version").action(ArgAction::Version));
            cmd = cmd.mut_arg("version", |a| ru_arg("", a));
            // clap adds its `help` command when the command is built: translated after.
            cmd.build();
            // Only texts change on it: an argument added after the build would not be built.
            if let Some(help) = cmd.find_subcommand_mut("help") {
                let about = COMMANDS.iter().find(|c| c.name == "help").map(|c| c.about);
                *help = std::mem::take(help)
                    .about(about)
                    .help_template(TEMPLATE)
                    .override_usage("ostrov help [КОМАНДА]...")
                    .subcommand_help_heading("Команды")
                    .subcommand_value_name("КОМАНДА")
                    .mut_args(|a| ru_arg("help", a));
                if help.find_subcommand("help").is_some() {
                    *help = std::mem::take(help).mut_subcommand("help", |h| h.about(about));
                }
            }
            cmd
        }
    }
}

/// `cmd` (the command `name`, "" for the top level) and its subcommands in Russian.
fn russian(cmd: Command, name: &str) -> Command {
    let texts = COMMANDS.iter().find(|c| c.name == name);
    let mut cmd = cmd
        .help_template(TEMPLATE)
        .subcommand_help_heading("Команды")
        .subcommand_value_name("КОМАНДА")
        .disable_help_flag(true)
        .arg(Arg::new("help").short('h').long("help").action(ArgAction::Help))
        .mut_args(|a| ru_arg(name, a));
    if let Some(t) = texts {
        cmd = cmd.about(t.about).long_about(t.long);
    }
    let usage = usage_of(&cmd, name);
    cmd = cmd.override_usage(usage);
    cmd.mut_subcommands(|s| {
        let sub = s.get_name().to_string();
        russian(s, &sub)
    })
}

/// The usage line in Russian: `ostrov resolve [ПАРАМЕТРЫ] <ФАЙЛ>`.
fn usage_of(cmd: &Command, name: &str) -> String {
    let mut out = if name.is_empty() { "ostrov".to_string() } else { format!("ostrov {name}") };
    if cmd.get_arguments().any(|a| !a.is_positional() && !a.is_hide_set()) {
        out.push_str(" [ПАРАМЕТРЫ]");
    }
    for a in cmd.get_arguments().filter(|a| a.is_positional()) {
        let v = a.get_value_names().and_then(|v| v.first()).map_or_else(|| a.get_id().to_string(), |v| v.to_string());
        if a.is_required_set() {
            out.push_str(&format!(" <{v}>"));
        } else {
            out.push_str(&format!(" [{v}]..."));
        }
    }
    if cmd.has_subcommands() {
        out.push_str(" <КОМАНДА>");
    }
    out
}

/// One argument of the command `command` in Russian: its help with its possible and
/// default values said in Russian (clap's «[possible values: …]» hidden), its value's
/// name, its heading.
fn ru_arg(command: &str, a: Arg) -> Arg {
    let id = a.get_id().as_str().to_string();
    let text = ARGS.iter().find(|t| t.id == id && (t.command == command || t.command.is_empty()));
    let mut help = text.map_or(String::new(), |t| t.help.to_string());
    let takes_value = a.get_action().takes_values();
    if takes_value {
        let values: Vec<String> =
            a.get_possible_values().iter().filter(|v| !v.is_hide_set()).map(|v| v.get_name().to_string()).collect();
        if !values.is_empty() && !a.is_positional() {
            help.push_str(&format!(" [варианты: {}]", values.join(", ")));
        }
        let defaults: Vec<String> = a.get_default_values().iter().map(|v| v.to_string_lossy().to_string()).collect();
        if !defaults.is_empty() {
            help.push_str(&format!(" [по умолчанию: {}]", defaults.join(",")));
        }
    }
    let heading = if a.is_positional() { ARGUMENTS } else { OPTIONS };
    let mut a = a.help(help).long_help(None::<&'static str>).hide_possible_values(true).hide_default_value(true);
    if !a.is_global_set() || command.is_empty() {
        a = a.help_heading(heading);
    }
    match text {
        Some(t) if !t.value.is_empty() && takes_value => a.value_name(t.value),
        _ => a,
    }
}

/// The possible values of `--bots`, for commands that take it.
pub fn bots() -> impl clap::builder::TypedValueParser<Value = ostrov_bots::BotKind> {
    clap::builder::PossibleValuesParser::new([PossibleValue::new("sensible"), PossibleValue::new("random")])
        .map(|s| s.parse::<ostrov_bots::BotKind>().expect("the possible values are bot kinds"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every command and every argument has its Russian: a new one without it fails here.
    #[test]
    fn issue_29_point_7_every_command_and_argument_has_russian() {
        let cmd = Cli::command();
        let mut missing = Vec::new();
        for sub in cmd.get_subcommands() {
            let name = sub.get_name();
            if !COMMANDS.iter().any(|c| c.name == name) {
                missing.push(format!("command {name}"));
            }
            for a in sub.get_arguments() {
                let id = a.get_id().as_str();
                if !ARGS.iter().any(|t| t.id == id && (t.command == name || t.command.is_empty())) {
                    missing.push(format!("{name} {id}"));
                }
            }
        }
        for a in cmd.get_arguments() {
            if !ARGS.iter().any(|t| t.id == a.get_id().as_str() && t.command.is_empty()) {
                missing.push(format!("ostrov {}", a.get_id()));
            }
        }
        assert!(missing.is_empty(), "no Russian for: {missing:?}");
    }

    #[test]
    fn the_russian_command_is_a_valid_clap_command() {
        command(Lang::Ru).debug_assert();
    }
}
