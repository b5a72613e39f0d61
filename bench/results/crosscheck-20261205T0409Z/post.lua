wrk.method = "POST"
wrk.headers["Content-Type"] = "application/octet-stream"
wrk.body = "ANB\1" .. string.rep("x", 1020)
