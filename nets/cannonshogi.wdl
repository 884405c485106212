# cannonshogi: fitted by `cannonade wdl` (maximum likelihood) on 23810 positions of 1497 games (548 mate scores left out) from /tmp/dev/wd/cannonshogi.bin; mean log loss 0.5721
# draws: 0.1% of games; the model gives no draw band (a = 0)
# a(m), b(m): cubics in m = clamp(move, 9, 61) / 32, centipawns
variant cannonshogi
moves 9 61
a 0.000000 0.000000 0.000000 0.000000
b 672.654378 -243.917489 -19.052811 73.277030
