//! What every store must do alike, run by each store's tests.

use ostrov_store::{Store, StoreError};
use serde_json::json;

/// Accounts (one per key, whatever the spelling), profiles, sessions and games on a fresh
/// store: the user and game made, for the store's own further checks.
pub async fn users_sessions_games<S: Store>(s: &S) -> (i64, i64) {
    let u = s.create_user("Вика", "ВИКА", "hash", 0).await.unwrap();
    assert!(matches!(s.create_user("Вика", "ВИКА", "x", 0).await, Err(StoreError::Conflict(_))));
    assert_eq!(s.user_by_name("Вика").await.unwrap().unwrap().id, u);
    assert_eq!(s.user_by_id(u).await.unwrap().unwrap().name, "Вика");
    // Issue 16 (point 5): one account per key, whatever the spelling of the name.
    assert!(matches!(s.create_user("ВИКА", "ВИКА", "x", 0).await, Err(StoreError::Conflict(_))));
    assert_eq!(s.user_by_key("ВИКА").await.unwrap().unwrap().id, u);
    assert!(s.user_by_key("БОРЯ").await.unwrap().is_none());
    assert!(s.users_without_key().await.unwrap().is_empty());
    let b = s.create_user("Боря", "БОРЯ", "h", 0).await.unwrap();
    assert!(matches!(s.set_user_key(b, "ВИКА").await, Err(StoreError::Conflict(_))));
    s.set_user_key(b, "БОРЯ2").await.unwrap();
    assert_eq!(s.user_by_key("БОРЯ2").await.unwrap().unwrap().id, b);
    // The profile (issue 15): none at first, then set, read by every lookup, and cleared.
    let fresh = s.user_by_id(u).await.unwrap().unwrap();
    assert_eq!((fresh.gender, fresh.forms), (None, None));
    let forms: Vec<String> = ["Вика", "Вики", "Вике", "Вику", "Викой", "Вике"].map(String::from).into();
    s.set_profile(u, Some("f"), Some(&forms)).await.unwrap();
    for got in [
        s.user_by_id(u).await.unwrap().unwrap(),
        s.user_by_name("Вика").await.unwrap().unwrap(),
        s.user_by_key("ВИКА").await.unwrap().unwrap(),
    ] {
        assert_eq!((got.gender.as_deref(), got.forms.as_ref()), (Some("f"), Some(&forms)));
    }
    assert_eq!(s.user_by_id(b).await.unwrap().unwrap().gender, None, "another account keeps its own");
    s.set_profile(u, Some("m"), None).await.unwrap();
    let got = s.user_by_id(u).await.unwrap().unwrap();
    assert_eq!((got.gender.as_deref(), got.forms), (Some("m"), None));

    s.create_session("tok", u, 100).await.unwrap();
    assert_eq!(s.session_user("tok", 50).await.unwrap(), Some(u));
    assert_eq!(s.session_user("tok", 100).await.unwrap(), None, "expired");
    s.delete_session("tok").await.unwrap();
    assert_eq!(s.session_user("tok", 50).await.unwrap(), None);
    // Issue 28, point 15: a password change, or "end the other sessions", ends every
    // session of the account but the one that asked; another account's stay.
    for t in ["mine", "intruder", "laptop"] {
        s.create_session(t, u, 100).await.unwrap();
        assert_eq!(s.session_user(t, 50).await.unwrap(), Some(u), "cached where a store caches");
    }
    s.create_session("boris", b, 100).await.unwrap();
    assert_eq!(s.set_password(u, "new-hash", "mine").await.unwrap(), 2);
    assert_eq!(s.user_by_id(u).await.unwrap().unwrap().password_hash, "new-hash");
    assert_eq!(s.session_user("mine", 50).await.unwrap(), Some(u), "the asking session stays");
    for t in ["intruder", "laptop"] {
        assert_eq!(s.session_user(t, 50).await.unwrap(), None, "{t} ended");
    }
    s.create_session("phone", u, 100).await.unwrap();
    assert_eq!(s.end_other_sessions(u, "mine").await.unwrap(), 1);
    assert_eq!(s.session_user("phone", 50).await.unwrap(), None);
    assert_eq!(s.session_user("mine", 50).await.unwrap(), Some(u));
    assert_eq!(s.session_user("boris", 50).await.unwrap(), Some(b), "another account's session stays");
    s.delete_session("mine").await.unwrap();

    let g = s.create_game("Остров", u, "inv1", &json!({"slots": 8}), 7).await.unwrap();
    let row = s.game(g).await.unwrap().unwrap();
    assert_eq!(row.setup, json!({"slots": 8}));
    assert_eq!(s.game_by_invite("inv1").await.unwrap().unwrap().id, g);
    assert!(s.game(999).await.unwrap().is_none());
    assert_eq!(s.games().await.unwrap().len(), 1);
    (u, g)
}
