# chess: fitted by `cannonade wdl` (maximum likelihood) on 119796 positions of 1711 games (230 mate scores left out) from chess.bin; mean log loss 0.6775
# draws: 22.8% of games
# a(m), b(m): cubics in m = clamp(move, 9, 120) / 32, centipawns
variant chess
moves 9 120
a 115.597623 -170.576655 239.754512 -40.241295
b 167.297464 -30.319371 28.749888 -7.269501
