# cannon: fitted by `cannonade wdl` (maximum likelihood) on 78794 positions of 1973 games (1230 mate scores left out) from cannon.bin; mean log loss 0.4559
# draws: 0.0% of games; the model gives no draw band (a = 0)
# a(m), b(m): cubics in m = clamp(move, 9, 50) / 32, centipawns
variant cannon
moves 9 50
a 0.000000 0.000000 0.000000 0.000000
b 195.262724 -537.545570 1005.638431 -373.289530
