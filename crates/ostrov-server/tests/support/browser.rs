//! A plain-HTTP "browser" for the web pages: a cookie jar, form posts
//! (`application/x-www-form-urlencoded`, no CSRF header: what a browser sends with
//! JavaScript off), redirects reported, not followed.

use std::collections::BTreeMap;

use ostrov_server::client::{Client, Reply};

pub struct Browser {
    pub c: Client,
    pub jar: BTreeMap<String, String>,
}

/// `application/x-www-form-urlencoded` of one value.
pub fn enc(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => out.push(b as char),
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// The value of the first hidden `csrf` field of a page.
pub fn csrf_of(html: &str) -> String {
    let at = html.find("name=\"csrf\" value=\"").expect("the page has a form with a csrf field") + 19;
    html[at..].split('"').next().unwrap().to_string()
}

impl Browser {
    pub fn new(addr: std::net::SocketAddr) -> Browser {
        let mut c = Client::new(addr);
        c.csrf = false;
        Browser { c, jar: BTreeMap::new() }
    }

    fn send(&mut self, method: &str, path: &str, ct: &str, body: &[u8]) -> Reply {
        self.c.cookie = (!self.jar.is_empty())
            .then(|| self.jar.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("; "));
        let r = self.c.raw(method, path, ct, body).expect("the server answers");
        for (k, v) in &r.headers {
            if k == "set-cookie" {
                let kv = v.split(';').next().unwrap_or_default();
                if let Some((name, value)) = kv.split_once('=') {
                    if value.is_empty() {
                        self.jar.remove(name);
                    } else {
                        self.jar.insert(name.to_string(), value.to_string());
                    }
                }
            }
        }
        assert!(r.status < 500, "{method} {path}: HTTP {} {}", r.status, r.body);
        r
    }

    pub fn get(&mut self, path: &str) -> Reply {
        self.send("GET", path, "", b"")
    }

    /// Posts a form; `fields` without the token, which is taken from `page`'s first form.
    pub fn post(&mut self, path: &str, csrf: &str, fields: &[(&str, &str)]) -> Reply {
        let mut body = format!("csrf={}", enc(csrf));
        for (k, v) in fields {
            body.push_str(&format!("&{}={}", enc(k), enc(v)));
        }
        self.send("POST", path, "application/x-www-form-urlencoded", body.as_bytes())
    }

    /// GETs `page`, then posts `fields` to `path` with that page's token.
    pub fn submit(&mut self, page: &str, path: &str, fields: &[(&str, &str)]) -> Reply {
        let p = self.get(page);
        let token = csrf_of(&p.body);
        self.post(path, &token, fields)
    }

    /// A new browser logged in through the login form (an account of [`signed_up`]).
    pub fn logged_in(addr: std::net::SocketAddr, name: &str) -> Browser {
        let mut b = Browser::new(addr);
        let r = b.submit("/login", "/login", &[("name", name), ("password", "пароль-для-теста")]);
        assert_eq!(r.status, 303, "login of {name}: {}", r.body);
        b
    }

    /// A new browser signed up through the sign-up form.
    pub fn signed_up(addr: std::net::SocketAddr, name: &str) -> Browser {
        let mut b = Browser::new(addr);
        let r = b.submit("/signup", "/signup", &[("name", name), ("password", "пароль-для-теста")]);
        assert_eq!(r.status, 303, "sign-up of {name}: {}", r.body);
        b
    }
}

/// Where a redirect points.
pub fn location(r: &Reply) -> String {
    r.header("location").unwrap_or_default().to_string()
}

/// The create form's fields of a custom game: its title and seats, the role fields given
/// (`("role_werewolf", "1")`), the item deck and the tie rule, at most 40 days on the
/// calendar schedule (22:00, 13:00 and 21:00, Moscow time).
pub fn custom_game<'a>(
    title: &'a str,
    slots: &'a str,
    roles: &[(&'a str, &'a str)],
    deck: &'a str,
    tie: &'a str,
) -> Vec<(&'a str, &'a str)> {
    let mut fields = vec![("title", title), ("slots", slots), ("setup", "custom")];
    fields.extend_from_slice(roles);
    fields.extend([
        ("deck", deck),
        ("tie", tie),
        ("max_days", "40"),
        ("tz", "Europe/Moscow"),
        ("open", "22:00"),
        ("midday", "13:00"),
        ("deadline", "21:00"),
    ]);
    fields
}

/// The invite of a lobby page: the `/join/…` link the host is given to copy.
pub fn invite_of(lobby: &str) -> String {
    let after = lobby.split("value=\"/join/").nth(1).expect("the lobby page shows the invite");
    after.split('"').next().unwrap().to_string()
}
