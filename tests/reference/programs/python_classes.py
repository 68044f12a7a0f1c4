import torch

class Point:
    dims = 2

    def __init__(self, coords):
        self.coords = torch.tensor(coords)

    def norm2(self):
        return (self.coords * self.coords).sum()

    def shifted(self, d):
        return Point((self.coords + d).tolist())

    def __repr__(self):
        return "Point(" + str(self.coords.tolist()) + ")"

class Point3(Point):
    dims = 3

    def norm2(self):
        return super().norm2() * 1.0

    def __repr__(self):
        return "Point3" + super().__repr__()[5:]

p = Point([3.0, 4.0])
print(p)
print(p.coords.shape, p.coords.dtype)
print(p.norm2())
print(p.shifted(1.5))
print(Point.dims, p.dims)
q = Point3([1, 2, 2])
print(q, q.dims, Point3.dims)
print(q.norm2(), q.coords.dtype)
print(isinstance(q, Point), type(q).__name__, Point3.__mro__[1].__name__)
pts = [Point([float(i), float(-i)]) for i in range(3)]
print(pts)
print(torch.stack([pt.coords for pt in pts]))
