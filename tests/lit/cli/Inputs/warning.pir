h2d $big : int64[2]
