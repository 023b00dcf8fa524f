// Who sits where: names, kinds and teams from the room's seats, and which seat is the viewer's.

export class SeatBook {
  constructor(seats = [], viewer = null) {
    this.viewer = viewer;
    this.seats = new Map();
    seats.forEach((seat) => this.take(seat));
  }

  /** A Seat in its JSON form (fields at zero are left out: seat 0, team 0). */
  take(seat) {
    const number = seat.seat ?? 0;
    this.seats.set(number, {
      seat: number,
      name: seat.name || "",
      kind: seat.kind || "",
      taken: Boolean(seat.taken),
      team: seat.team ?? 0,
      choice: seat.choice || "",
      playerId: seat.playerId || "", // the player holding it ("" for an anonymous seat, a system player's, a free one)
      standIn: seat.standIn || "", // the level of the system player standing in for its person ("" while they play)
      seed: seat.seed || "", // the seat's seed for the fair deal, as published ("" for none)
    });
  }

  /** A StandIn event: a system player at ``level`` stands in for the seat's person ("" : the person is back). */
  standIn(seat, level) {
    const record = this.seats.get(seat);
    if (record) record.standIn = level || "";
  }

  get count() {
    return this.seats.size ? Math.max(...this.seats.keys()) + 1 : 0;
  }

  /** Whether the game has teams (without, every seat is its own team: team = seat). */
  get hasTeams() {
    return [...this.seats.values()].some((seat) => seat.team !== seat.seat);
  }

  isSystem(seat) {
    return this.seats.get(seat)?.kind === "SEAT_KIND_SYSTEM";
  }

  /** The seat's name in a sentence: "you", "ann", or "heuristic bot 2" when two seats share a name. */
  name(seat) {
    if (seat === null || seat === undefined || seat < 0) return "the table";
    if (seat === this.viewer) return "you";
    const record = this.seats.get(seat);
    if (!record || !record.name) return `seat ${seat}`;
    const shared = [...this.seats.values()].some((other) => other.seat !== seat && other.name === record.name);
    return shared ? `${record.name} ${seat}` : record.name;
  }

  /** The seat's name as a heading: "ann (you)", "heuristic bot 1", "(free)". */
  title(seat) {
    const record = this.seats.get(seat);
    if (seat === this.viewer) return `${record?.name || `seat ${seat}`} (you)`;
    if (record && !record.taken) return "(free)";
    const name = this.name(seat);
    return this.isSystem(seat) && !/bot/i.test(name) ? `${name} (bot)` : name;
  }

  team(seat) {
    return this.seats.get(seat)?.team ?? seat;
  }

  /** The other seats of the seat's team. */
  teammates(seat) {
    const team = this.team(seat);
    return [...this.seats.keys()].filter((other) => other !== seat && this.team(other) === team).sort((a, b) => a - b);
  }

  names(seats) {
    return (seats || []).map((seat) => this.name(seat)).join(", ") || "nobody";
  }
}
