//! Telling a player that it has become their move while their page is closed (two-player games run over days): an
//! e-mail through the operator's SMTP server (`pacw serve --smtp URL`) and/or a JSON POST to a webhook that Discord
//! and Slack accept. One message a move; a failed one is tried again in the background, never holding the game up.

use bytes::Bytes;
use http_body_util::Full;
use hyper::{Request, Uri, header};
use hyper_rustls::{HttpsConnector, HttpsConnectorBuilder};
use hyper_util::client::legacy::{Client, connect::HttpConnector};
use hyper_util::rt::TokioExecutor;
use lettre::message::{Mailbox, header::ContentType};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use serde::Serialize;
use std::time::Duration;

/// The webhooks' client: HTTPS (the web's roots of trust, ring's cryptography, as the mail's) or plain HTTP.
type WebClient = Client<HttpsConnector<HttpConnector>, Full<Bytes>>;

/// How long a webhook may take to answer.
const WEBHOOK_TIMEOUT: Duration = Duration::from_secs(20);

/// Where a player wants to be told: both checked when given ([`Contact::new`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Contact {
    /// An e-mail address.
    pub email: Option<String>,
    /// A webhook's URL (`https://…`, or `http://` for a server on the same network).
    pub webhook: Option<String>,
}

impl Contact {
    /// Checks what a player gave (blank means none): an address of the form `name@host`, a URL of http or https.
    ///
    /// # Errors
    /// Says which of the two is not right, and how it should look.
    pub fn new(email: Option<&str>, webhook: Option<&str>) -> Result<Contact, String> {
        let blank = |s: Option<&str>| s.map(str::trim).filter(|s| !s.is_empty()).map(str::to_string);
        let (email, webhook) = (blank(email), blank(webhook));
        if let Some(e) = &email
            && (e.len() > 254 || e.parse::<Mailbox>().is_err() || !e.contains('@'))
        {
            return Err(format!("'{e}' is not an e-mail address such as name@example.org"));
        }
        if let Some(w) = &webhook {
            let ok = w.len() <= 2000
                && w.parse::<Uri>().is_ok_and(|u| {
                    matches!(u.scheme_str(), Some("http" | "https")) && u.host().is_some_and(|h| !h.is_empty())
                });
            if !ok {
                return Err(format!("'{w}' is not a webhook URL such as https://discord.com/api/webhooks/…"));
            }
        }
        Ok(Contact { email, webhook })
    }

    /// Whether there is nowhere to tell.
    pub fn is_empty(&self) -> bool {
        self.email.is_none() && self.webhook.is_none()
    }
}

/// What a player is told.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Notice {
    /// The e-mail's subject.
    pub subject: String,
    /// The message, with the game's link in it.
    pub text: String,
    /// The game's link for this player.
    pub link: String,
}

/// The webhook's body: `content` for Discord, `text` for Slack, and the facts for anything else.
#[derive(Serialize)]
struct WebhookBody<'a> {
    content: &'a str,
    text: &'a str,
    subject: &'a str,
    link: &'a str,
}

/// The waits before each new try of a message that failed (then it is given up, and the log says so).
pub const RETRIES: [Duration; 4] =
    [Duration::from_secs(1), Duration::from_secs(10), Duration::from_secs(60), Duration::from_secs(600)];

/// Sends notices: by e-mail when the operator gave an SMTP server, and to webhooks.
pub struct Notifier {
    smtp: Option<(AsyncSmtpTransport<Tokio1Executor>, Mailbox)>,
    http: WebClient,
}

impl Notifier {
    /// A notifier sending e-mail through `smtp` (`smtps://user:pass@host`, `smtp://host:25`, …) from `from`, if
    /// given.
    ///
    /// # Errors
    /// When the SMTP URL or the sender's address cannot be read.
    pub fn new(smtp: Option<&str>, from: &str) -> Result<Notifier, String> {
        let smtp = match smtp {
            None => None,
            Some(url) => {
                let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
                    .map_err(|e| format!("--smtp {url}: {e}"))?
                    .timeout(Some(Duration::from_secs(20)))
                    .build();
                let from = from.parse::<Mailbox>().map_err(|e| format!("--smtp-from {from}: {e}"))?;
                Some((transport, from))
            }
        };
        let https = HttpsConnectorBuilder::new()
            .with_provider_and_webpki_roots(rustls::crypto::ring::default_provider())
            .map_err(|e| format!("cannot make the webhook client: {e}"))?
            .https_or_http()
            .enable_http1()
            .build();
        let http = Client::builder(TokioExecutor::new()).build(https);
        Ok(Notifier { smtp, http })
    }

    /// Whether e-mail can be sent (an SMTP server was given).
    pub fn has_smtp(&self) -> bool {
        self.smtp.is_some()
    }

    /// Sends `notice` to each of `contact`'s places, each on its own task with its own tries ([`RETRIES`]).
    pub fn send(self: &std::sync::Arc<Self>, runtime: &tokio::runtime::Handle, contact: &Contact, notice: Notice) {
        if let Some(to) = contact.email.clone() {
            let (me, notice) = (self.clone(), notice.clone());
            runtime.spawn(async move { me.with_retries("e-mail", &to, || me.email(&to, &notice)).await });
        }
        if let Some(url) = contact.webhook.clone() {
            let me = self.clone();
            runtime.spawn(async move { me.with_retries("webhook", &url, || me.webhook(&url, &notice)).await });
        }
    }

    async fn with_retries<F, Fut>(&self, what: &str, to: &str, attempt: F)
    where
        F: Fn() -> Fut,
        Fut: std::future::Future<Output = Result<(), String>>,
    {
        for wait in std::iter::once(Duration::ZERO).chain(RETRIES) {
            tokio::time::sleep(wait).await;
            match attempt().await {
                Ok(()) => return,
                Err(e) => eprintln!("pacw server: the {what} to {} failed: {e}", redact(to)),
            }
        }
        eprintln!("pacw server: the {what} to {} is given up after {} tries", redact(to), RETRIES.len() + 1);
    }

    async fn email(&self, to: &str, notice: &Notice) -> Result<(), String> {
        let Some((transport, from)) = &self.smtp else {
            return Err("no SMTP server was given (pacw serve --smtp URL)".into());
        };
        let message = Message::builder()
            .from(from.clone())
            .to(to.parse::<Mailbox>().map_err(|e| e.to_string())?)
            .subject(&notice.subject)
            .header(ContentType::TEXT_PLAIN)
            .body(notice.text.clone())
            .map_err(|e| e.to_string())?;
        transport.send(message).await.map(|_| ()).map_err(|e| e.to_string())
    }

    async fn webhook(&self, url: &str, notice: &Notice) -> Result<(), String> {
        let body =
            WebhookBody { content: &notice.text, text: &notice.text, subject: &notice.subject, link: &notice.link };
        let json = serde_json::to_vec(&body).map_err(|e| e.to_string())?;
        let request = Request::post(url)
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::USER_AGENT, "pacw")
            .body(Full::new(Bytes::from(json)))
            .map_err(|e| e.to_string())?;
        let reply = tokio::time::timeout(WEBHOOK_TIMEOUT, self.http.request(request))
            .await
            .map_err(|_| format!("no answer within {} s", WEBHOOK_TIMEOUT.as_secs()))?
            .map_err(|e| e.to_string())?;
        if reply.status().is_success() { Ok(()) } else { Err(format!("the server answered {}", reply.status())) }
    }
}

/// A place to tell, for the log: the host of a URL (its path may hold a secret), the domain of an address.
fn redact(to: &str) -> String {
    match to.parse::<Uri>() {
        Ok(u) if u.scheme().is_some() => u.host().unwrap_or("?").to_string(),
        _ => to.rsplit('@').next().map_or_else(String::new, |d| format!("…@{d}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_contact_is_checked_and_blank_means_none() {
        let c = Contact::new(Some(" ann@example.org "), Some("")).unwrap();
        assert_eq!(c, Contact { email: Some("ann@example.org".into()), webhook: None });
        assert!(Contact::new(None, None).unwrap().is_empty());
        assert!(Contact::new(Some("not an address"), None).unwrap_err().contains("e-mail address"));
        assert!(Contact::new(None, Some("ftp://x.org/hook")).unwrap_err().contains("webhook URL"));
        assert!(Contact::new(None, Some("https://discord.com/api/webhooks/1/abc")).is_ok());
    }

    #[test]
    fn the_log_names_only_the_host_or_domain() {
        assert_eq!(redact("https://discord.com/api/webhooks/1/secret"), "discord.com");
        assert_eq!(redact("ann@example.org"), "…@example.org");
    }
}
