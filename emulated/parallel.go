package emulated

import (
	"runtime"
	"sync"
)

// parallelFor calls body(i) for i = 0 … n−1 on up to GOMAXPROCS
// goroutines, handing out the indexes in increasing order, and returns
// once every call has. Each body must write only its own results, so that
// they do not depend on the number of goroutines.
func parallelFor(n int, body func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				body(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}
