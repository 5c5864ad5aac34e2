//! A side's display colour on the board (the scenario key `counter`): a CSS colour name or `#rrggbb`.

use crate::unit::Side;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The CSS named colours (CSS Color Module Level 4), sorted for a binary search.
const NAMED: [&str; 148] = [
    "aliceblue",
    "antiquewhite",
    "aqua",
    "aquamarine",
    "azure",
    "beige",
    "bisque",
    "black",
    "blanchedalmond",
    "blue",
    "blueviolet",
    "brown",
    "burlywood",
    "cadetblue",
    "chartreuse",
    "chocolate",
    "coral",
    "cornflowerblue",
    "cornsilk",
    "crimson",
    "cyan",
    "darkblue",
    "darkcyan",
    "darkgoldenrod",
    "darkgray",
    "darkgreen",
    "darkgrey",
    "darkkhaki",
    "darkmagenta",
    "darkolivegreen",
    "darkorange",
    "darkorchid",
    "darkred",
    "darksalmon",
    "darkseagreen",
    "darkslateblue",
    "darkslategray",
    "darkslategrey",
    "darkturquoise",
    "darkviolet",
    "deeppink",
    "deepskyblue",
    "dimgray",
    "dimgrey",
    "dodgerblue",
    "firebrick",
    "floralwhite",
    "forestgreen",
    "fuchsia",
    "gainsboro",
    "ghostwhite",
    "gold",
    "goldenrod",
    "gray",
    "green",
    "greenyellow",
    "grey",
    "honeydew",
    "hotpink",
    "indianred",
    "indigo",
    "ivory",
    "khaki",
    "lavender",
    "lavenderblush",
    "lawngreen",
    "lemonchiffon",
    "lightblue",
    "lightcoral",
    "lightcyan",
    "lightgoldenrodyellow",
    "lightgray",
    "lightgreen",
    "lightgrey",
    "lightpink",
    "lightsalmon",
    "lightseagreen",
    "lightskyblue",
    "lightslategray",
    "lightslategrey",
    "lightsteelblue",
    "lightyellow",
    "lime",
    "limegreen",
    "linen",
    "magenta",
    "maroon",
    "mediumaquamarine",
    "mediumblue",
    "mediumorchid",
    "mediumpurple",
    "mediumseagreen",
    "mediumslateblue",
    "mediumspringgreen",
    "mediumturquoise",
    "mediumvioletred",
    "midnightblue",
    "mintcream",
    "mistyrose",
    "moccasin",
    "navajowhite",
    "navy",
    "oldlace",
    "olive",
    "olivedrab",
    "orange",
    "orangered",
    "orchid",
    "palegoldenrod",
    "palegreen",
    "paleturquoise",
    "palevioletred",
    "papayawhip",
    "peachpuff",
    "peru",
    "pink",
    "plum",
    "powderblue",
    "purple",
    "rebeccapurple",
    "red",
    "rosybrown",
    "royalblue",
    "saddlebrown",
    "salmon",
    "sandybrown",
    "seagreen",
    "seashell",
    "sienna",
    "silver",
    "skyblue",
    "slateblue",
    "slategray",
    "slategrey",
    "snow",
    "springgreen",
    "steelblue",
    "tan",
    "teal",
    "thistle",
    "tomato",
    "turquoise",
    "violet",
    "wheat",
    "white",
    "whitesmoke",
    "yellow",
    "yellowgreen",
];

/// A side's colour on the board, in counters, log and ledger: a CSS colour name or `#rrggbb`, kept in lower case.
/// Only a display choice: the card colour of R2.1 is [`super::Colour`].
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct CounterColour(String);

impl CounterColour {
    /// Reads a colour name (`steelblue`) or `#rrggbb`, in any case; `None` if it is neither.
    ///
    /// ```
    /// use pacw_engine::CounterColour;
    /// assert_eq!(CounterColour::parse("#2B4C7E").unwrap().as_str(), "#2b4c7e");
    /// assert!(CounterColour::parse("SteelBlue").is_some());
    /// assert!(CounterColour::parse("#12345").is_none() && CounterColour::parse("url(x)").is_none());
    /// ```
    pub fn parse(text: &str) -> Option<CounterColour> {
        let lower = text.trim().to_ascii_lowercase();
        let hex = lower.len() == 7 && lower.starts_with('#') && lower[1..].bytes().all(|b| b.is_ascii_hexdigit());
        (hex || NAMED.binary_search(&lower.as_str()).is_ok()).then_some(CounterColour(lower))
    }

    /// The colour a side has when the scenario names none: the first side blue, the second grey.
    pub fn default_for(side: Side) -> CounterColour {
        CounterColour(match side {
            Side::A => "#2b4c7e".to_string(),
            Side::B => "#6b6b6b".to_string(),
        })
    }

    /// As written in CSS.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for CounterColour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl TryFrom<String> for CounterColour {
    type Error = String;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        CounterColour::parse(&text).ok_or_else(|| format!("'{text}' is not a colour name or #rrggbb"))
    }
}

impl From<CounterColour> for String {
    fn from(c: CounterColour) -> String {
        c.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_names_are_sorted_for_the_binary_search() {
        assert!(NAMED.windows(2).all(|w| w[0] < w[1]));
    }
}
