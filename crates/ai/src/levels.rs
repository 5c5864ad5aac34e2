//! The three levels a player chooses an opponent by — `recruit`, `veteran`, `general` — and the sentence that
//! tells each computer player apart where it is offered. A level is a name for one of the laboratory's players at
//! set settings (docs/findings.md measures each), so that the laboratory can change what stands behind a level
//! without the lobby, the saves or the command line changing the name.

use crate::Player;
use pacw_engine::{Action, Battle};

/// A computer player offered by name, with the sentence that says what it is like to play against.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Offered {
    /// Its name, as `pacw play --vs` and the API take it.
    pub name: &'static str,
    /// One sentence for whoever chooses it.
    pub about: &'static str,
    /// What it plays as: for a level, a laboratory player and its settings; otherwise the name itself.
    pub plays_as: &'static str,
    /// A level (offered first, to players) rather than a laboratory player.
    pub level: bool,
}

/// Every named computer player: the three levels first (weakest first), then the laboratory's own.
pub const OFFERED: [Offered; 7] = [
    Offered {
        name: "recruit",
        about: "sees what matters but misjudges close calls, now and then taking the second-best order: \
                for learning the game, and beatable by a newcomer",
        plays_as: "recruit",
        level: true,
    },
    Offered {
        name: "veteran",
        about: "takes the order that looks best now by the exact odds and a seasoned eye for ground, cover and \
                objectives: a sound opponent that punishes loose play, and answers at once",
        plays_as: "greedy:tuned",
        level: true,
    },
    Offered {
        name: "general",
        about: "the strongest: takes the order its trained judgement likes best and checks it against the \
                others by playing the battle out hundreds of times; may think a few seconds",
        plays_as: "mcts:g12800:e4:f0:n1:z1:k32:race",
        level: true,
    },
    Offered {
        name: "greedy",
        about: "takes the order that looks best right now, judged by the exact odds: quick, and a fair opponent",
        plays_as: "greedy",
        level: false,
    },
    Offered {
        name: "mcts",
        about: "the laboratory's search (settings such as mcts:500 or mcts:300ms): plays each candidate order out \
                thousands of times against a greedy opponent",
        plays_as: "mcts",
        level: false,
    },
    Offered {
        name: "td",
        about: "the value network learnt by self-play, choosing at one ply: judges every order by where it leads, \
                the dice averaged exactly; answers at once",
        plays_as: "td",
        level: false,
    },
    Offered {
        name: "random",
        about: "picks any legal order at random: for learning the controls",
        plays_as: "random",
        level: false,
    },
];

/// The level offered unless another is chosen.
pub const DEFAULT_LEVEL: &str = "veteran";

/// The offered player of this name (a bare name, without settings).
pub fn offered(name: &str) -> Option<&'static Offered> {
    OFFERED.iter().find(|o| o.name == name)
}

/// What a name plays as: a level's laboratory player with the settings given after the level's name appended (so
/// that they override the level's own: `general:t1` is `mcts:g12800:e4:f0:n1:z1:k32:race:t1`); any other name as it is.
pub fn plays_as(name: &str) -> String {
    let (first, rest) = name.split_once(':').map_or((name, None), |(f, r)| (f, Some(r)));
    match offered(first) {
        Some(o) if o.plays_as != o.name => match rest {
            Some(rest) => format!("{}:{rest}", o.plays_as),
            None => o.plays_as.to_string(),
        },
        _ => name.to_string(),
    }
}

/// A player under a level's name (the laboratory player it plays as does the thinking).
pub(crate) struct Named {
    pub(crate) name: &'static str,
    pub(crate) inner: Box<dyn Player + Send>,
}

impl Player for Named {
    fn name(&self) -> &str {
        self.name
    }

    fn choose(&mut self, battle: &Battle) -> Action {
        self.inner.choose(battle)
    }
}
