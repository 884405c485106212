# cannonshogi: fitted by `cannonade wdl` (maximum likelihood) on 38893 positions of 2055 games (1108 mate scores left out) from /work/data/wdl/cs-r8.bin; mean log loss 0.5620
# draws: 0.0% of games; the model gives no draw band (a = 0)
# a(m), b(m): cubics in m = clamp(move, 9, 66) / 32, centipawns
variant cannonshogi
moves 9 66
a 0.000000 0.000000 0.000000 0.000000
b 618.275112 -208.273018 -15.011764 54.615410
