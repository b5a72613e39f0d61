for i in $(seq 12); do
  if [ $((i % 2)) = 1 ]; then
    (cd ../baseline && ./loopbench measure --protocol tcp --clients 16 --window 16 --repetitions 1) >> baseline2.json
    ./loopbench measure --protocol tcp --clients 16 --window 16 --repetitions 1 >> candidate2.json
  else
    ./loopbench measure --protocol tcp --clients 16 --window 16 --repetitions 1 >> candidate2.json
    (cd ../baseline && ./loopbench measure --protocol tcp --clients 16 --window 16 --repetitions 1) >> baseline2.json
  fi
done
./loopbench compare baseline2.json candidate2.json --paired
