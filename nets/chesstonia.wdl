# chesstonia: fitted by `cannonade wdl` (maximum likelihood) on 79881 positions of 846 games (173 mate scores left out) from chesstonia.bin; mean log loss 0.6722
# draws: 16.7% of games
# a(m), b(m): cubics in m = clamp(move, 9, 120) / 32, centipawns
variant chesstonia
moves 9 120
a 83.710263 -103.750430 101.942040 -5.678032
b 158.687483 -12.746489 17.578203 -3.457253
