// How long a decision of the other side stays on screen while it is played back: by what happened, not a fixed
// beat. Choosing a unit shows nothing new (its order follows at once); a card or a move is quick to read; an attack,
// with its dice and their result, takes longest. No DOM here, so that node can test it alone.

/// The pause after a decision whose events are `events` (log entries or bare events), for the player's `pace`
/// setting in milliseconds (0: at once).
export function pauseFor(events, pace) {
  if (!pace) return 0;
  const kinds = new Set(events.map((e) => (e.event || e).event));
  if (kinds.has('attack') || kinds.has('to_hit_rolled')) return Math.round(pace * 1.6);
  if (kinds.has('moved') || kinds.has('retreated')) return Math.round(pace * 0.7);
  if (kinds.has('card_drawn') || kinds.has('initiative_rolled') || kinds.has('turn_started')) return Math.round(pace * 0.5);
  if (kinds.has('activated') && kinds.size === 1) return 0;
  return Math.round(pace * 0.4);
}
