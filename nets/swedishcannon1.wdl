# swedishcannon1: fitted by `cannonade wdl` (maximum likelihood) on 77602 positions of 1050 games (287 mate scores left out) from /tmp/dev/wd/swedishcannon1.bin; mean log loss 0.5999
# draws: 20.5% of games
# a(m), b(m): cubics in m = clamp(move, 9, 120) / 32, centipawns
variant swedishcannon1
moves 9 120
a 87.800395 -36.590872 35.154335 22.880825
b 245.867890 -245.477808 125.696434 -15.199720
