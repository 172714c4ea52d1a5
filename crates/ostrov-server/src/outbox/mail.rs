//! Sending a claimed mail row of the outbox (issue 31, point 5): a confirmation mail to the
//! address it confirms (and only while that address is unconfirmed), any other notice to
//! the account's confirmed address with its unsubscribe link. A refusal (5xx) drops the
//! row; any other failure gives it back, tried again with backoff.

use std::sync::Arc;

use ostrov_store::{Outgoing, Store};

use super::retry::{backoff, wall};
use crate::app::AppState;
use crate::mail::{self, smtp, Mail};

/// Sends one claimed mail row.
pub(super) async fn send_one<S: Store>(st: &Arc<AppState<S>>, claim: &str, n: &Outgoing) -> Result<(), String> {
    let store = |e: ostrov_store::StoreError| e.to_string();
    let dropped = |why: &'static str| async move {
        st.store.outbox_done(n.id, claim, "dropped", wall(), Some(why)).await.map(|_| ()).map_err(store)
    };
    let (Some(mailer), Some(site)) = (st.notify.mail.clone(), st.notify.site.clone()) else {
        return dropped("mail off").await;
    };
    let Some(address) = st.store.mail_of(n.recipient).await.map_err(store)? else {
        return dropped("no address").await;
    };
    let m = if n.kind == mail::CONFIRM {
        let current = address.token.as_deref().is_some_and(|t| n.text.contains(t));
        if address.confirmed_at.is_some() || !current {
            return dropped("the address changed or was confirmed").await;
        }
        let subject = n.text.lines().next().unwrap_or("Остров страха").to_string();
        Mail { to: address.address, subject, text: n.text.clone(), unsubscribe: None }
    } else {
        if address.confirmed_at.is_none() {
            return dropped("the address is not confirmed").await;
        }
        let unsubscribe = format!("{}/mail/unsubscribe/{}", site.trim_end_matches('/'), address.unsub);
        mail::compose(&address.address, &n.text, &unsubscribe)
    };
    let message = mail::message(&mailer.from, &m, wall());
    let login = mailer.login.as_ref().map(|(u, p)| (u.as_str(), p.0.as_str()));
    match smtp::send(&mailer.server, login, &mailer.from, &m.to, &message).await {
        Ok(()) => {
            st.store.outbox_done(n.id, claim, "sent", wall(), None).await.map_err(store)?;
        }
        Err(smtp::Failure::Refused(why)) => {
            st.store.outbox_done(n.id, claim, "dropped", wall(), Some(&why)).await.map_err(store)?;
        }
        Err(smtp::Failure::Later(why)) => {
            eprintln!("ostrov-server: mail: {why}");
            st.store.outbox_retry(n.id, claim, wall() + backoff(n.attempts), &why).await.map_err(store)?;
        }
    }
    Ok(())
}
