# cannonshogi: fitted by `cannonade wdl` (maximum likelihood) on 38857 positions of 2114 games (1161 mate scores left out) from /work/data/wdl/cannonshogi.bin; mean log loss 0.5668
# draws: 0.0% of games; the model gives no draw band (a = 0)
# a(m), b(m): cubics in m = clamp(move, 9, 67) / 32, centipawns
variant cannonshogi
moves 9 67
a 0.000000 0.000000 0.000000 0.000000
b 598.562225 -38.509785 -223.141461 124.336247
