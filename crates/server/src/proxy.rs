//! The client's address behind a reverse proxy, for the limits kept per client (new games an hour, games the
//! computer plays against itself). Behind a proxy every connection comes from the proxy, so every person would share
//! one allowance; the proxy says whom it forwards in `X-Forwarded-For` (or `Forwarded`, RFC 7239). Those headers are
//! believed only from the proxies the operator names (`pacw serve --trusted-proxy CIDR`): anyone else could write
//! them to take a fresh allowance with every request.

use axum::http::{HeaderMap, header};
use std::net::IpAddr;
use std::str::FromStr;

/// A block of addresses, such as `10.0.0.0/8`, `fd00::/8`, or one address (`127.0.0.1`, a block of one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cidr {
    net: IpAddr,
    prefix: u8,
}

impl FromStr for Cidr {
    type Err = String;

    fn from_str(text: &str) -> Result<Cidr, String> {
        let bad = || format!("'{text}' is not an address or a block of addresses such as 10.0.0.0/8 or fd00::/8");
        let (addr, prefix) = match text.trim().split_once('/') {
            Some((a, p)) => (a, Some(p)),
            None => (text.trim(), None),
        };
        let net: IpAddr = addr.parse().map_err(|_| bad())?;
        let net = net.to_canonical();
        let bits = if net.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            None => bits,
            Some(p) if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) => {
                p.parse::<u8>().ok().filter(|&p| p <= bits).ok_or_else(bad)?
            }
            Some(_) => return Err(bad()),
        };
        Ok(Cidr { net, prefix })
    }
}

impl std::fmt::Display for Cidr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.net, self.prefix)
    }
}

impl Cidr {
    /// Whether `ip` is in this block (an IPv4 address written as IPv6, `::ffff:10.0.0.1`, as its IPv4 self).
    pub fn contains(&self, ip: IpAddr) -> bool {
        let bits = |n: u128, width: u32| {
            let shift = width - u32::from(self.prefix);
            if shift >= 128 { 0 } else { n >> shift }
        };
        match (self.net, ip.to_canonical()) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                bits(u128::from(u32::from(net)), 32) == bits(u128::from(u32::from(ip)), 32)
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => bits(u128::from(net), 128) == bits(u128::from(ip), 128),
            _ => false,
        }
    }
}

/// The address of the client behind a request that reached the server from `peer`. From a trusted proxy, the
/// forwarded addresses are read from the right (the nearest hop first), past every trusted proxy, to the first
/// address that is not one: that is the client (an address further left was written by someone the server does not
/// trust). `X-Forwarded-For` is read if the request has one, else `Forwarded`'s `for=`; a hop that is not an address
/// (`unknown`, an obfuscated name) stops the walk at the proxy that wrote it. From anyone else, `peer`.
pub fn client_address(peer: IpAddr, headers: &HeaderMap, trusted: &[Cidr]) -> IpAddr {
    let is_trusted = |ip: IpAddr| trusted.iter().any(|c| c.contains(ip));
    let mut client = peer.to_canonical();
    if !is_trusted(client) {
        return client;
    }
    let mut hops = forwarded_for(headers);
    while let Some(hop) = hops.pop() {
        match parse_hop(&hop) {
            Some(ip) => {
                client = ip;
                if !is_trusted(ip) {
                    break;
                }
            }
            None => break,
        }
    }
    client
}

/// Whether a trusted proxy says the client reached it over HTTPS (`X-Forwarded-Proto: https`, or `Forwarded`'s
/// `proto=https`), so that the session cookie is sent back only over HTTPS (`Secure`). From anyone else: no.
pub fn forwarded_https(peer: IpAddr, headers: &HeaderMap, trusted: &[Cidr]) -> bool {
    if !trusted.iter().any(|c| c.contains(peer.to_canonical())) {
        return false;
    }
    let first = |name: header::HeaderName| {
        headers.get(name).and_then(|v| v.to_str().ok()).map(|v| v.split(',').next().unwrap_or("").trim().to_string())
    };
    if let Some(proto) = first(header::HeaderName::from_static("x-forwarded-proto")) {
        return proto.eq_ignore_ascii_case("https");
    }
    first(header::FORWARDED).is_some_and(|element| {
        element.split(';').any(|pair| {
            pair.split_once('=').is_some_and(|(k, v)| {
                k.trim().eq_ignore_ascii_case("proto") && v.trim().trim_matches('"').eq_ignore_ascii_case("https")
            })
        })
    })
}

/// The forwarded addresses, leftmost (farthest) first, as the request's headers list them.
fn forwarded_for(headers: &HeaderMap) -> Vec<String> {
    let values = |name| headers.get_all(name).iter().filter_map(|v| v.to_str().ok()).collect::<Vec<_>>();
    let xff = values(header::HeaderName::from_static("x-forwarded-for"));
    if !xff.is_empty() {
        return xff.iter().flat_map(|v| v.split(',')).map(|h| h.trim().to_string()).collect();
    }
    values(header::FORWARDED)
        .iter()
        .flat_map(|v| v.split(','))
        .filter_map(|element| {
            element.split(';').find_map(|pair| {
                let (k, v) = pair.split_once('=')?;
                k.trim().eq_ignore_ascii_case("for").then(|| v.trim().trim_matches('"').to_string())
            })
        })
        .collect()
}

/// One hop's address: `192.0.2.1`, `192.0.2.1:4711`, `2001:db8::1` or `[2001:db8::1]:4711`.
fn parse_hop(hop: &str) -> Option<IpAddr> {
    if let Ok(ip) = hop.parse::<IpAddr>() {
        return Some(ip.to_canonical());
    }
    if let Ok(sa) = hop.parse::<std::net::SocketAddr>() {
        return Some(sa.ip().to_canonical());
    }
    let inner = hop.strip_prefix('[')?.split(']').next()?;
    inner.parse::<IpAddr>().ok().map(|ip| ip.to_canonical())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, v.parse().unwrap());
        }
        h
    }

    #[test]
    fn blocks_are_read_and_hold_their_addresses() {
        let ten: Cidr = "10.0.0.0/8".parse().unwrap();
        assert!(ten.contains(ip("10.200.1.2")) && !ten.contains(ip("11.0.0.1")));
        assert!(ten.contains(ip("::ffff:10.0.0.1")), "an IPv4 address written as IPv6");
        let one: Cidr = "127.0.0.1".parse().unwrap();
        assert!(one.contains(ip("127.0.0.1")) && !one.contains(ip("127.0.0.2")));
        let all: Cidr = "0.0.0.0/0".parse().unwrap();
        assert!(all.contains(ip("203.0.113.9")) && !all.contains(ip("::1")));
        let six: Cidr = "fd00::/8".parse().unwrap();
        assert!(six.contains(ip("fd12::1")) && !six.contains(ip("fe80::1")));
        for bad in ["10.0.0.0/33", "10.0.0/8", "x", "10.0.0.0/", "10.0.0.0/+8", "::/129", ""] {
            assert!(bad.parse::<Cidr>().unwrap_err().contains("10.0.0.0/8"), "{bad}");
        }
    }

    #[test]
    fn https_is_believed_only_from_a_trusted_proxy() {
        let trusted = ["10.0.0.0/8".parse::<Cidr>().unwrap()];
        let https = headers(&[("x-forwarded-proto", "https")]);
        assert!(forwarded_https(ip("10.1.1.1"), &https, &trusted));
        assert!(!forwarded_https(ip("192.0.2.1"), &https, &trusted), "anyone may write the header");
        assert!(!forwarded_https(ip("10.1.1.1"), &headers(&[("x-forwarded-proto", "http")]), &trusted));
        let fwd = headers(&[("forwarded", r#"for=192.0.2.60;proto=https"#)]);
        assert!(forwarded_https(ip("10.1.1.1"), &fwd, &trusted));
    }

    #[test]
    fn forwarded_addresses_are_believed_only_from_trusted_proxies() {
        let trusted: Vec<Cidr> = vec!["127.0.0.1".parse().unwrap(), "10.0.0.0/8".parse().unwrap()];
        let xff = headers(&[("x-forwarded-for", "198.51.100.7, 203.0.113.5, 10.1.1.1")]);
        // From the proxy: past the trusted hop 10.1.1.1 to the client; what lies left of it is the client's word.
        assert_eq!(client_address(ip("127.0.0.1"), &xff, &trusted), ip("203.0.113.5"));
        // From anyone else: the connection's own address, whatever it writes.
        assert_eq!(client_address(ip("192.0.2.9"), &xff, &trusted), ip("192.0.2.9"));
        assert_eq!(client_address(ip("192.0.2.9"), &xff, &[]), ip("192.0.2.9"));
        // Forwarded (RFC 7239), with quotes, ports and brackets; read only without X-Forwarded-For.
        let fwd = headers(&[("forwarded", r#"for=192.0.2.60;proto=http, For="[2001:db8:cafe::17]:4711""#)]);
        assert_eq!(client_address(ip("127.0.0.1"), &fwd, &trusted), ip("2001:db8:cafe::17"));
        // A hop that is not an address: the proxy that wrote it stands for the client.
        let unknown = headers(&[("x-forwarded-for", "unknown")]);
        assert_eq!(client_address(ip("10.0.0.3"), &unknown, &trusted), ip("10.0.0.3"));
        // No header: the proxy itself.
        assert_eq!(client_address(ip("127.0.0.1"), &HeaderMap::new(), &trusted), ip("127.0.0.1"));
        // Several headers are one list, in order.
        let two = headers(&[("x-forwarded-for", "198.51.100.7"), ("x-forwarded-for", "203.0.113.5:80")]);
        assert_eq!(client_address(ip("127.0.0.1"), &two, &trusted), ip("203.0.113.5"));
    }
}
