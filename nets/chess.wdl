# chess: fitted by `cannonade wdl` (maximum likelihood) on 119782 positions of 1635 games (225 mate scores left out) from chess.bin; mean log loss 0.6719
# draws: 23.9% of games
# a(m), b(m): cubics in m = clamp(move, 9, 120) / 32, centipawns
variant chess
moves 9 120
a 102.086142 -157.342796 221.352915 -36.340812
b 134.779396 -22.864440 29.857327 -6.235185
