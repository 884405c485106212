# chess: fitted by `cannonade wdl` (maximum likelihood) on 119811 positions of 1623 games (224 mate scores left out) from chess.bin; mean log loss 0.6741
# draws: 24.2% of games
# a(m), b(m): cubics in m = clamp(move, 9, 120) / 32, centipawns
variant chess
moves 9 120
a 94.529231 -154.855549 238.483113 -38.985592
b 102.088825 41.134994 9.404072 -6.120901
