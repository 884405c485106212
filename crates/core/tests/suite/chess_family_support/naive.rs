//! A deliberately simple second implementation of the chess-family rules: a square array,
//! pieces walked one step at a time, every move made on a copy and tested for "is my king
//! attacked". It shares no move-generation code with the engine (only square names and the
//! board's shape), so agreement between the two is evidence for both.

use cannonade_core::board::{BitWord, Color, Square};
use cannonade_core::games::chess::{ChessPosition, ChessRules, Role};

const ORTHOGONAL: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];
const KNIGHT: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (-1, 2),
    (-2, 1),
    (1, -2),
    (2, -1),
    (-1, -2),
    (-2, -1),
];

#[derive(Clone)]
pub struct Board {
    files: i32,
    ranks: i32,
    valid: Vec<bool>,
    squares: Vec<Option<(Color, Role)>>,
    side: Color,
    /// Castling rights as FEN letters (`KQkq` with the outermost rooks).
    castling: String,
    ep: Option<usize>,
    reserve: [u8; 2],
    promotions: Vec<Role>,
    names: Vec<String>,
    /// Cannons of Chesstonia: pieces on the squares beside the board (cannon, storage, load),
    /// indexed like `squares`; chess pieces never see them.
    chesstonia: bool,
    machine: Vec<Option<(Color, Role)>>,
}

impl Board {
    pub fn from_position<W: BitWord, R: ChessRules>(pos: &ChessPosition<W, R>) -> Board {
        let geo = &pos.tables().geo;
        let size = geo.size();
        let fen = pos.fen();
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let names: Vec<String> = (0..size)
            .map(|i| geo.square_name(Square::new(i as u8), false))
            .collect();
        Board {
            files: geo.files() as i32,
            ranks: geo.ranks() as i32,
            valid: (0..size)
                .map(|i| geo.is_valid(Square::new(i as u8)))
                .collect(),
            squares: (0..size)
                .map(|i| {
                    let sq = Square::new(i as u8);
                    if geo.is_valid(sq) {
                        pos.piece_at(sq).map(|p| (p.color(), p.role()))
                    } else {
                        None
                    }
                })
                .collect(),
            side: if fields[1] == "w" {
                Color::White
            } else {
                Color::Black
            },
            castling: fields[2].to_string(),
            ep: names.iter().position(|n| n == fields[3]),
            reserve: [pos.reserve(Color::White), pos.reserve(Color::Black)],
            promotions: R::PROMOTIONS.to_vec(),
            names,
            // Chesstonia is the board with squares beside it for its machinery.
            chesstonia: pos.tables().extra.any(),
            machine: (0..size)
                .map(|i| {
                    let sq = Square::new(i as u8);
                    if geo.is_valid(sq) {
                        None
                    } else {
                        pos.piece_at(sq).map(|p| (p.color(), p.role()))
                    }
                })
                .collect(),
        }
    }

    fn at(&self, f: i32, r: i32) -> Option<usize> {
        if f < 0 || r < 0 || f >= self.files || r >= self.ranks {
            return None;
        }
        let i = (r * self.files + f) as usize;
        self.valid[i].then_some(i)
    }

    fn step(&self, s: usize, (df, dr): (i32, i32)) -> Option<usize> {
        let (f, r) = self.coords(s);
        self.at(f + df, r + dr)
    }

    fn coords(&self, s: usize) -> (i32, i32) {
        (s as i32 % self.files, s as i32 / self.files)
    }

    fn dark(&self, s: usize) -> bool {
        let (f, r) = self.coords(s);
        (f + r) % 2 == 1
    }

    fn king(&self, c: Color) -> usize {
        (0..self.squares.len())
            .find(|&s| self.squares[s] == Some((c, Role::King)))
            .expect("a king")
    }

    /// Does a piece of `by` attack square `target`?
    pub fn attacked(&self, target: usize, by: Color) -> bool {
        let slides_to = |s: usize, d: (i32, i32)| {
            let mut cur = s;
            while let Some(n) = self.step(cur, d) {
                if n == target {
                    return true;
                }
                if self.squares[n].is_some() {
                    return false;
                }
                cur = n;
            }
            false
        };
        let hops_to = |s: usize, d: (i32, i32)| {
            let mut cur = s;
            let mut screens = 0;
            while let Some(n) = self.step(cur, d) {
                if self.squares[n].is_some() || n == target {
                    if screens == 1 {
                        return n == target;
                    }
                    screens += 1;
                }
                cur = n;
            }
            false
        };
        let fwd = if by == Color::White { 1 } else { -1 };
        (0..self.squares.len()).any(|s| {
            let Some((c, role)) = self.squares[s] else {
                return false;
            };
            if c != by {
                return false;
            }
            let leaps = |ds: &[(i32, i32)]| ds.iter().any(|&d| self.step(s, d) == Some(target));
            match role {
                Role::Pawn | Role::Scorpion => leaps(&[(1, fwd), (-1, fwd)]),
                Role::Knight => leaps(&KNIGHT),
                Role::King => leaps(&ORTHOGONAL) || leaps(&DIAGONAL),
                Role::Bishop => DIAGONAL.into_iter().any(|d| slides_to(s, d)),
                Role::Rook => ORTHOGONAL.into_iter().any(|d| slides_to(s, d)),
                Role::Queen => ORTHOGONAL
                    .into_iter()
                    .chain(DIAGONAL)
                    .any(|d| slides_to(s, d)),
                Role::Cannon => ORTHOGONAL.into_iter().any(|d| hops_to(s, d)),
                Role::Cannonrider if self.dark(s) => ORTHOGONAL.into_iter().any(|d| hops_to(s, d)),
                Role::Cannonrider => KNIGHT.into_iter().any(|d| slides_to(s, d)),
                Role::Wazir => leaps(&ORTHOGONAL),
                Role::Ferz => leaps(&DIAGONAL),
                // Chesstonia's cannon stays beside the board (in `machine`).
                Role::Stone | Role::TrackCannon => false,
            }
        })
    }

    /// Every legal move, as sorted UCI strings.
    pub fn legal_moves(&self) -> Vec<String> {
        let us = self.side;
        let mut out = Vec::new();
        for (m, after) in self.candidates() {
            if !after.attacked(after.king(us), !us) {
                out.push(m);
            }
        }
        out.extend(self.castlings());
        out.sort();
        out
    }

    /// An enemy piece that can be captured (a Stone cannot).
    fn is_enemy(&self, s: usize) -> bool {
        matches!(self.squares[s], Some((c, r)) if c != self.side && r != Role::Stone)
    }

    /// Pseudo-legal moves other than castling, each with the board after it.
    fn candidates(&self) -> Vec<(String, Board)> {
        let us = self.side;
        let fwd = if us == Color::White { 1 } else { -1 };
        let last = if us == Color::White {
            self.ranks - 1
        } else {
            0
        };
        let second = if us == Color::White {
            1
        } else {
            self.ranks - 2
        };
        let mut targets: Vec<(usize, usize)> = Vec::new();
        let mut out = Vec::new();
        for s in 0..self.squares.len() {
            let Some((c, role)) = self.squares[s] else {
                continue;
            };
            if c != us {
                continue;
            }
            let mut add = |t: usize| targets.push((s, t));
            let free = |t: usize| self.squares[t].is_none() || self.is_enemy(t);
            let slide = |d: (i32, i32), add: &mut dyn FnMut(usize), capture: bool| {
                let mut cur = s;
                while let Some(n) = self.step(cur, d) {
                    if self.squares[n].is_some() {
                        if capture && self.is_enemy(n) {
                            add(n);
                        }
                        break;
                    }
                    add(n);
                    cur = n;
                }
            };
            // The squares a Janggi/Swedish cannon reaches past the screen in direction d.
            let jumps = |d: (i32, i32)| {
                let mut v = Vec::new();
                let mut cur = s;
                let mut screen = false;
                while let Some(n) = self.step(cur, d) {
                    if self.squares[n].is_some() {
                        if screen {
                            if self.is_enemy(n) {
                                v.push(n);
                            }
                            break;
                        }
                        screen = true;
                    } else if screen {
                        v.push(n);
                    }
                    cur = n;
                }
                v
            };
            match role {
                Role::King => {
                    for d in ORTHOGONAL.into_iter().chain(DIAGONAL) {
                        if let Some(t) = self.step(s, d).filter(|&t| free(t)) {
                            add(t);
                        }
                    }
                }
                Role::Knight => {
                    for d in KNIGHT {
                        if let Some(t) = self.step(s, d).filter(|&t| free(t)) {
                            add(t);
                        }
                    }
                }
                Role::Bishop | Role::Rook | Role::Queen => {
                    let dirs: Vec<(i32, i32)> = match role {
                        Role::Bishop => DIAGONAL.to_vec(),
                        Role::Rook => ORTHOGONAL.to_vec(),
                        _ => ORTHOGONAL.into_iter().chain(DIAGONAL).collect(),
                    };
                    for d in dirs {
                        slide(d, &mut add, true);
                    }
                }
                Role::Cannonrider if self.dark(s) => {
                    for d in ORTHOGONAL {
                        slide(d, &mut add, false);
                        // The Xiangqi capture: the first piece after exactly one screen.
                        let mut cur = s;
                        let mut screen = false;
                        while let Some(n) = self.step(cur, d) {
                            if self.squares[n].is_some() {
                                if screen {
                                    if self.is_enemy(n) {
                                        add(n);
                                    }
                                    break;
                                }
                                screen = true;
                            }
                            cur = n;
                        }
                    }
                }
                Role::Cannonrider => {
                    for d in KNIGHT {
                        slide(d, &mut add, true);
                    }
                }
                Role::Wazir | Role::Ferz => {
                    let dirs = if role == Role::Wazir {
                        ORTHOGONAL
                    } else {
                        DIAGONAL
                    };
                    for d in dirs {
                        if let Some(t) = self.step(s, d).filter(|&t| free(t)) {
                            add(t);
                        }
                    }
                }
                Role::Stone | Role::TrackCannon => {}
                Role::Cannon => {
                    let all: Vec<usize> = ORTHOGONAL.into_iter().flat_map(jumps).collect();
                    if all.is_empty() {
                        for d in ORTHOGONAL {
                            slide(d, &mut add, false);
                        }
                    } else {
                        all.into_iter().for_each(add);
                    }
                }
                Role::Pawn | Role::Scorpion => {
                    let (_, r) = self.coords(s);
                    let mut pawn_targets = Vec::new();
                    if let Some(t) = self
                        .step(s, (0, fwd))
                        .filter(|&t| self.squares[t].is_none())
                    {
                        pawn_targets.push(t);
                        if r == second {
                            if let Some(t2) = self
                                .step(t, (0, fwd))
                                .filter(|&t2| self.squares[t2].is_none())
                            {
                                pawn_targets.push(t2);
                            }
                        }
                    }
                    for df in [-1, 1] {
                        if let Some(t) = self.step(s, (df, fwd)) {
                            if self.is_enemy(t) || self.ep == Some(t) {
                                pawn_targets.push(t);
                            }
                        }
                    }
                    if role == Role::Scorpion {
                        for df in [-2, 2] {
                            if let Some(t) = self
                                .step(s, (df, fwd))
                                .filter(|&t| self.squares[t].is_none())
                            {
                                pawn_targets.push(t);
                            }
                        }
                    }
                    for t in pawn_targets {
                        if self.coords(t).1 == last {
                            for &p in &self.promotions {
                                let name = format!(
                                    "{}{}{}",
                                    self.names[s],
                                    self.names[t],
                                    p.letter().to_ascii_lowercase()
                                );
                                let mut b = self.moved(s, t);
                                b.squares[t] = Some((us, p));
                                out.push((name, b));
                            }
                        } else {
                            add(t);
                        }
                    }
                }
            }
        }
        for (s, t) in targets {
            out.push((
                format!("{}{}", self.names[s], self.names[t]),
                self.moved(s, t),
            ));
        }
        // Drops: a cannon replaces a second-rank pawn, which goes two squares ahead.
        if self.reserve[us.index()] > 0 {
            for s in 0..self.squares.len() {
                if self.squares[s] != Some((us, Role::Pawn)) || self.coords(s).1 != second {
                    continue;
                }
                let one = self.step(s, (0, fwd));
                let two = one.and_then(|o| self.step(o, (0, fwd)));
                if let (Some(one), Some(two)) = (one, two) {
                    if self.squares[one].is_none() && self.squares[two].is_none() {
                        let mut b = self.clone();
                        b.squares[two] = b.squares[s];
                        b.squares[s] = Some((us, Role::Cannon));
                        b.side = !us;
                        b.ep = None;
                        out.push((format!("C@{}", self.names[s]), b));
                    }
                }
            }
        }
        if self.chesstonia {
            out.extend(self.cannon_actions());
        }
        out
    }

    /// Chesstonia's cannon actions, from the rules file's squares: white's cannon on k3-k6,
    /// storage l3 (P), l4 (W), l5 (F), l6 (S), load square l1, firing toward file c; black's on
    /// b3-b6, storage a6 (p), a5 (w), a4 (f), a3 (s), load square a8, firing toward file j.
    fn cannon_actions(&self) -> Vec<(String, Board)> {
        let us = self.side;
        let (track, store, load, step) = if us == Color::White {
            (10, 11, (11, 0), -1)
        } else {
            (1, 0, (0, 7), 1)
        };
        let home = |role: Role| -> (i32, i32) {
            let i = [Role::Pawn, Role::Wazir, Role::Ferz, Role::Stone]
                .iter()
                .position(|&r| r == role)
                .unwrap() as i32;
            if us == Color::White {
                (store, 2 + i)
            } else {
                (store, 5 - i)
            }
        };
        let idx = |(f, r): (i32, i32)| (r * self.files + f) as usize;
        let mut out = Vec::new();
        let shift = |from: usize, to: usize, b: &mut Vec<(String, Board)>| {
            let mut after = self.clone();
            after.machine[to] = after.machine[from].take();
            after.side = !us;
            after.ep = None;
            b.push((format!("{}{}", self.names[from], self.names[to]), after));
        };
        let cannon = (2..6)
            .map(|r| idx((track, r)))
            .find(|&s| self.machine[s].is_some());
        let Some(cannon) = cannon else {
            return out;
        };
        let load_sq = idx(load);
        let stored: Vec<usize> = (2..6)
            .map(|r| idx((store, r)))
            .filter(|&s| self.machine[s].is_some())
            .collect();
        let loaded = self.machine[load_sq];
        if loaded.is_some() || !stored.is_empty() {
            for r in 2..6 {
                if idx((track, r)) != cannon {
                    shift(cannon, idx((track, r)), &mut out);
                }
            }
        }
        match loaded {
            None => {
                for &s in &stored {
                    shift(s, load_sq, &mut out);
                }
            }
            Some((_, role)) => {
                shift(load_sq, idx(home(role)), &mut out);
                let rank = self.coords(cannon).1;
                let mut f = track + step;
                let mut screen = false;
                while let Some(s) = self.at(f, rank) {
                    if self.squares[s].is_some() {
                        if screen {
                            break;
                        }
                        screen = true;
                    } else if screen {
                        let mut after = self.clone();
                        after.squares[s] = after.machine[load_sq].take();
                        after.side = !us;
                        after.ep = None;
                        out.push((format!("{}{}", self.names[load_sq], self.names[s]), after));
                    }
                    f += step;
                }
            }
        }
        out
    }

    /// The board after a piece goes from `s` to `t` (en passant removes the passed pawn).
    fn moved(&self, s: usize, t: usize) -> Board {
        let mut b = self.clone();
        let piece = b.squares[s].take();
        if matches!(piece, Some((_, Role::Pawn | Role::Scorpion))) && self.ep == Some(t) {
            let back = if self.side == Color::White { -1 } else { 1 };
            let victim = self.step(t, (0, back)).unwrap();
            b.squares[victim] = None;
        }
        b.squares[t] = piece;
        b.side = !self.side;
        b.ep = None;
        b
    }

    /// Legal castlings: the king moves two squares toward the outermost rook, which lands on
    /// the square the king crossed.
    fn castlings(&self) -> Vec<String> {
        let us = self.side;
        let mut out = Vec::new();
        let k = self.king(us);
        let (kf, kr) = self.coords(k);
        if self.attacked(k, !us) {
            return out;
        }
        for right in self.castling.chars().filter(|&c| c != '-') {
            if right.is_ascii_uppercase() != (us == Color::White) {
                continue;
            }
            let dir = match right.to_ascii_uppercase() {
                'K' => 1,
                'Q' => -1,
                _ => panic!(
                    "the naive board knows only KQkq rights, not {}",
                    self.castling
                ),
            };
            // The outermost rook on that side.
            let rook = (0..self.files)
                .map(|f| if dir > 0 { self.files - 1 - f } else { f })
                .filter_map(|f| self.at(f, kr))
                .find(|&s| {
                    self.squares[s] == Some((us, Role::Rook)) && (self.coords(s).0 - kf) * dir > 0
                })
                .expect("a castling right has its rook");
            let k_to = self.at(kf + 2 * dir, kr).unwrap();
            let r_to = self.at(kf + dir, kr).unwrap();
            let (rf, _) = self.coords(rook);
            let (lo, hi) = (kf.min(rf).min(kf + 2 * dir), kf.max(rf).max(kf + 2 * dir));
            let blocked = (lo..=hi)
                .filter_map(|f| self.at(f, kr))
                .any(|s| s != k && s != rook && self.squares[s].is_some());
            if blocked {
                continue;
            }
            // The crossed square, with the king standing on it and the rook at home.
            let mut crossing = self.clone();
            crossing.squares[k] = None;
            crossing.squares[r_to] = Some((us, Role::King));
            if crossing.attacked(r_to, !us) {
                continue;
            }
            let mut after = self.clone();
            after.squares[k] = None;
            after.squares[rook] = None;
            after.squares[k_to] = Some((us, Role::King));
            after.squares[r_to] = Some((us, Role::Rook));
            if after.attacked(k_to, !us) {
                continue;
            }
            out.push(format!("{}{}", self.names[k], self.names[k_to]));
        }
        out
    }
}
