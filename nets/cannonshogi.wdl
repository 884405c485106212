# cannonshogi: fitted by `cannonade wdl` (maximum likelihood) on 38750 positions of 1949 games (1252 mate scores left out) from /work/data/r9/wdl-cs.bin; mean log loss 0.5494
# draws: 0.0% of games; the model gives no draw band (a = 0)
# a(m), b(m): cubics in m = clamp(move, 9, 67) / 32, centipawns
variant cannonshogi
moves 9 67
a 0.000000 0.000000 0.000000 0.000000
b 286.509639 465.387118 -461.540711 145.066769
